#!/usr/bin/env bash
# Builds the ping probe's JNI helper (mclb_icmp.c) into the class path, META-INF/native, from the
# Maven build of common: build.sh CLASSES_DIR JAVA_HOME OS_ARCH. Without gcc or JNI headers the
# build goes on, and ping probes fail with "ICMP unavailable" at run time (the log says why).
set -euo pipefail
out="$1/META-INF/native"
jdk="$2"
arch="$3"
src="$(cd "$(dirname "$0")" && pwd)/mclb_icmp.c"
lib="$out/libmclb-icmp-$arch.so"
if ! command -v gcc >/dev/null 2>&1; then
  echo "mclb: gcc not found: this build has no ICMP helper, ping probes will be unavailable" >&2
  exit 0
fi
if [ ! -f "$jdk/include/jni.h" ]; then
  echo "mclb: no JNI headers under $jdk/include: this build has no ICMP helper, ping probes will be unavailable" >&2
  exit 0
fi
mkdir -p "$out"
if [ -f "$lib" ] && [ "$lib" -nt "$src" ]; then
  exit 0
fi
gcc -O2 -fPIC -shared -Wall -Wextra -Werror -I"$jdk/include" -I"$jdk/include/linux" -o "$lib" "$src"
