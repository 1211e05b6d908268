/**
 * Where the Flink lines' APIs differ: one implementation of each class per line, in {@code
 * src/main/flink-<line>/java} (this copy: Flink 1.20), picked by the build's {@code flink.line}.
 * The rest of the code calls these and never asks which line it runs on.
 */
package io.tfstream.operators.compat;
