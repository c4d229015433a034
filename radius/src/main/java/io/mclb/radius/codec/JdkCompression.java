package io.mclb.radius.codec;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/**
 * The JDK's MD5 block compression, {@code sun.security.provider.MD5.implCompress0}, which HotSpot
 * replaces with its intrinsic, reached through a method handle so that {@link Md5} keeps its own
 * padding, HMAC pad states and buffer handling and borrows only the 64-octet step. The digest
 * object's {@code state} array is read once and then written directly: it is allocated in the
 * constructor and never replaced. Needs {@code --add-opens java.base/sun.security.provider};
 * without it {@link #AVAILABLE} is false and {@link Md5} uses its Java rounds.
 */
final class JdkCompression {
    private static final MethodHandle COMPRESS;
    private static final MethodHandle NEW_DIGEST;
    private static final VarHandle STATE;
    static final boolean AVAILABLE;

    static {
        MethodHandle compress = null;
        MethodHandle newDigest = null;
        VarHandle state = null;
        try {
            Class<?> md5 = Class.forName("sun.security.provider.MD5");
            MethodHandles.Lookup in = MethodHandles.privateLookupIn(md5, MethodHandles.lookup());
            compress = in.findVirtual(md5, "implCompress0", MethodType.methodType(void.class, byte[].class, int.class))
                    .asType(MethodType.methodType(void.class, Object.class, byte[].class, int.class));
            newDigest = in.findConstructor(md5, MethodType.methodType(void.class))
                    .asType(MethodType.methodType(Object.class));
            state = in.findVarHandle(md5, "state", int[].class);
            if (!digestsLikeMd5(compress, newDigest, state)) {
                compress = null;
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            compress = null; // not opened to us, or another JDK's layout: the Java rounds
        }
        COMPRESS = compress;
        NEW_DIGEST = newDigest;
        STATE = state;
        AVAILABLE = compress != null;
    }

    private JdkCompression() {
    }

    /** One compression of the empty message's padded block from the initial state: MD5("") by RFC 1321. */
    private static boolean digestsLikeMd5(MethodHandle compress, MethodHandle newDigest, VarHandle state) {
        try {
            Object d = newDigest.invokeExact();
            int[] s = (int[]) state.get(d);
            byte[] block = new byte[64];
            block[0] = (byte) 0x80;
            compress.invokeExact(d, block, 0);
            return s.length == 4 && s[0] == 0xd98c1dd4 && s[1] == 0x04b2008f && s[2] == 0x980980e9 && s[3] == 0x7e42f8ec;
        } catch (Throwable t) {
            return false;
        }
    }

    static Object newDigest() {
        try {
            return (Object) NEW_DIGEST.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("sun.security.provider.MD5 could not be created", t);
        }
    }

    /** The digest's A, B, C, D, compressed in place by {@link #compress}. */
    static int[] state(Object digest) {
        return (int[]) STATE.get(digest);
    }

    /** Compresses {@code block[0..64)} into {@code digest}'s state. */
    static void compress(Object digest, byte[] block) {
        try {
            COMPRESS.invokeExact(digest, block, 0);
        } catch (Throwable t) {
            throw new IllegalStateException("MD5 compression failed", t); // no checked exception is thrown by it
        }
    }
}
