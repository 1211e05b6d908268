/** The JSON-lines form of parsed batches used by the command line ({@code tfstream parse}). */
package io.tfstream.tensor.json;
