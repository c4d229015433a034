package io.mclb.binding;

import java.util.ArrayList;
import java.util.List;

/**
 * A kind of per-subscriber binding (GTP sessions, Mobile IP bindings, ASN MSIDs): an open set like
 * {@link io.mclb.sticky.StickyKind}, declared once in a constant by the module that owns it; the
 * label is the {@code kind} of {@code mclb_bindings_active}.
 *
 * @param <B> the module's binding type
 */
public final class BindingKind<B extends Binding> {
    private static final List<BindingKind<?>> ALL = new ArrayList<>();

    private final String label;
    /** Set once by the owning module; null while the kind is not replicated. */
    private volatile BindingCodec<B> codec;

    private BindingKind(String label) {
        this.label = label;
    }

    /** Declares a kind; the same label twice returns the first declaration. */
    @SuppressWarnings("unchecked")
    public static synchronized <B extends Binding> BindingKind<B> of(String label) {
        for (BindingKind<?> k : ALL) {
            if (k.label.equals(label)) {
                return (BindingKind<B>) k;
            }
        }
        BindingKind<B> k = new BindingKind<>(label);
        ALL.add(k);
        return k;
    }

    /** The kind of {@code label}, or null if no module declared it in this process. */
    public static synchronized BindingKind<?> ofLabel(String label) {
        for (BindingKind<?> k : ALL) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        return null;
    }

    /** Every kind declared so far. */
    public static synchronized List<BindingKind<?>> all() {
        return List.copyOf(ALL);
    }

    /**
     * Makes the kind replicated to the HA standby with {@code c} (the owning module calls it once,
     * where it declares the kind or registers its module). Returns this kind.
     */
    public BindingKind<B> codec(BindingCodec<B> c) {
        this.codec = c;
        return this;
    }

    /** The replication codec, or null. */
    public BindingCodec<B> codec() {
        return codec;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
