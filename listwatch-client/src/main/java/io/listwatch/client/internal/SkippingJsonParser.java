package io.listwatch.client.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import com.fasterxml.jackson.core.sym.ByteQuadsCanonicalizer;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Jackson's UTF-8 stream parser with {@link #skipValue}: {@link JsonParser#skipChildren} at a
 * fraction of the cost, for values a decoder does not keep (a pod's {@code spec},
 * {@code status} and {@code managedFields}, when only its metadata is decoded and its bytes
 * are kept as they arrived).
 *
 * <p>{@code skipChildren} reads every token of the skipped value: each field name is decoded
 * and looked up in the name table, which was most of the client's decode time in a pod
 * informer's sync. {@link #skipValue} scans the bytes instead, tracking only strings (and
 * their escapes) and the nesting of brackets, which must match; it does not check numbers,
 * literals, commas or colons inside the skipped value, nor that string bytes are valid UTF-8.
 * The skipped bytes are still in the object's JSON, so a reader of them (a tree, a typed
 * model) finds any such error later.
 *
 * <p>Confined to one thread, as any parser.
 */
public final class SkippingJsonParser extends UTF8StreamJsonParser {

  /** Whether each open level of the value being skipped is an object (else an array); grows. */
  private boolean[] objectAt = new boolean[32];

  SkippingJsonParser(IOContext ctxt, int features, InputStream in, ObjectCodec codec, ByteQuadsCanonicalizer sym,
      byte[] buffer) {
    super(ctxt, features, in, codec, sym, buffer, 0, 0, 0, true);
  }

  /**
   * As {@link #skipChildren}: on a {@code START_OBJECT} or {@code START_ARRAY}, moves to the
   * matching end token; on any other token, does nothing.
   */
  public void skipValue() throws IOException {
    JsonToken start = _currToken;
    if (start != JsonToken.START_OBJECT && start != JsonToken.START_ARRAY) {
      return;
    }
    objectAt[0] = start == JsonToken.START_OBJECT;
    int depth = 1;
    int maxDepth = streamReadConstraints().getMaxNestingDepth() - _parsingContext.getNestingDepth() + 1;
    while (true) {
      if (_inputPtr >= _inputEnd && !_loadMore()) {
        _reportInvalidEOF(" in a skipped value", objectAt[0] ? JsonToken.END_OBJECT : JsonToken.END_ARRAY);
      }
      byte b = _inputBuffer[_inputPtr++];
      switch (b) {
        case '"' -> skipStringBytes();
        case '{', '[' -> {
          if (depth >= maxDepth) {
            _reportError("a skipped value nests deeper than the maximum of "
                + streamReadConstraints().getMaxNestingDepth());
          }
          if (depth == objectAt.length) {
            objectAt = Arrays.copyOf(objectAt, depth * 2);
          }
          objectAt[depth++] = b == '{';
        }
        case '}', ']' -> {
          boolean object = objectAt[--depth];
          if (object != (b == '}')) {
            _reportUnexpectedChar(b, "in a skipped value: mismatched end marker");
          }
          if (depth == 0) {
            _tokenInputTotal = _currInputProcessed + _inputPtr - 1;
            _parsingContext = _parsingContext.clearAndGetParent();
            _currToken = object ? JsonToken.END_OBJECT : JsonToken.END_ARRAY;
            return;
          }
        }
        case '\n' -> {
          ++_currInputRow;
          _currInputRowStart = _inputPtr;
        }
        default -> {
        }
      }
    }
  }

  /** Moves past the rest of a string whose opening quote was just read. */
  private void skipStringBytes() throws IOException {
    while (true) {
      if (_inputPtr >= _inputEnd && !_loadMore()) {
        _reportInvalidEOF(" in a string of a skipped value", JsonToken.VALUE_STRING);
      }
      byte b = _inputBuffer[_inputPtr++];
      if (b == '"') {
        return;
      }
      if (b == '\\') {
        if (_inputPtr >= _inputEnd && !_loadMore()) {
          _reportInvalidEOF(" in a string of a skipped value", JsonToken.VALUE_STRING);
        }
        _inputPtr++; // the escaped byte; \\uXXXX's digits need no care
      }
    }
  }
}
