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

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
