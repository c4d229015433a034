package io.mclb.gtp.mip;

/**
 * What one registration carries from its request to its reply.
 *
 * @param key          the binding key (NAI hash or Home Address); meaningful when {@code sub != 0}
 * @param sub          {@link MipBinding#SUB_NAI}, {@link MipBinding#SUB_HOME_ADDRESS}, or 0 when the
 *                     request names neither (then no binding is learnt)
 * @param reassignable balanced (dynamic home agent assignment): a 130 reply may move it to another
 *                     home agent; a request naming its home agent, or following a binding, stays
 */
record MipTx(long key, int sub, boolean reassignable) {
}
