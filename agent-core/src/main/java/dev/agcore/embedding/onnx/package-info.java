/**
 * An in-process embedding model: a small ONNX model shipped in a Maven package, so that
 * vector search works with no API key and no server.
 */
@NullMarked
package dev.agcore.embedding.onnx;

import org.jspecify.annotations.NullMarked;
