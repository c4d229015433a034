#!/usr/bin/env bash
# Builds the JNI helpers of common into the class path, META-INF/native, from the Maven build of
# common: build.sh CLASSES_DIR JAVA_HOME OS_ARCH. mclb_icmp.c opens the ping probe's ICMP sockets;
# mclb_mmsg.c is the UDP data path's recvmmsg/sendmmsg; mclb_tcpraw.c opens the tcp probe's raw
# sockets (half-open checks). Without gcc or JNI headers the build goes on: ping probes fail with
# "ICMP unavailable" at run time, tcp probes complete a handshake and the data path uses Netty's
# recvmmsg/sendmmsg (the log says why).
set -euo pipefail
out="$1/META-INF/native"
jdk="$2"
arch="$3"
dir="$(cd "$(dirname "$0")" && pwd)"
if ! command -v gcc >/dev/null 2>&1; then
  echo "mclb: gcc not found: this build has no ICMP helper (ping probes unavailable) and no own recvmmsg/sendmmsg" >&2
  exit 0
fi
if [ ! -f "$jdk/include/jni.h" ]; then
  echo "mclb: no JNI headers under $jdk/include: this build has no ICMP helper (ping probes unavailable) and no own recvmmsg/sendmmsg" >&2
  exit 0
fi
mkdir -p "$out"
for name in icmp mmsg tcpraw; do
  src="$dir/mclb_$name.c"
  lib="$out/libmclb-$name-$arch.so"
  if [ -f "$lib" ] && [ "$lib" -nt "$src" ]; then
    continue
  fi
  gcc -O2 -fPIC -shared -Wall -Wextra -Werror -I"$jdk/include" -I"$jdk/include/linux" -o "$lib" "$src"
done
