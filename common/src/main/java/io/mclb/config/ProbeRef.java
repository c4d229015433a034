package io.mclb.config;

/** A farm's {@code probe NAME} line: the reals of the farm are checked by probe NAME (several per farm). */
public record ProbeRef(String name, SourceRef source) {
}
