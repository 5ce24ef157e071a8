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
 * informer's sync. {@link #skipValue} scans the bytes instead, and checks them against JSON's
 * grammar as it goes (brackets that match, field names, colons and commas where they belong,
 * numbers, literals, string escapes, no raw control characters, and well-formed UTF-8), without
 * decoding anything: what it accepts, Jackson's own parser reads again from the kept bytes, and
 * what is malformed fails the decode, as it would in client-go. (Found by fuzzing: the scan
 * once checked only brackets and strings, so malformed JSON inside a skipped value was accepted,
 * and failed later in whoever read the object's bytes.)
 *
 * <p>Confined to one thread, as any parser.
 */
public final class SkippingJsonParser extends UTF8StreamJsonParser {

  /** Where the scan of a skipped value is: what it expects next. */
  private static final int KEY_OR_END = 0;
  private static final int KEY = 1;
  private static final int COLON = 2;
  private static final int VALUE_OR_END = 3;
  private static final int VALUE = 4;
  private static final int AFTER_VALUE = 5;

  /** Whether each open level of the value being skipped is an object (else an array); grows. */
  private boolean[] objectAt = new boolean[32];

  SkippingJsonParser(IOContext ctxt, int features, InputStream in, ObjectCodec codec, ByteQuadsCanonicalizer sym,
      byte[] buffer) {
    super(ctxt, features, in, codec, sym, buffer, 0, 0, 0, true);
  }

  /**
   * As {@link #skipChildren}: on a {@code START_OBJECT} or {@code START_ARRAY}, moves to the
   * matching end token; on any other token, does nothing.
   *
   * @throws com.fasterxml.jackson.core.JsonParseException if the value is not well-formed JSON,
   *     or nests deeper than the parser's limit
   */
  public void skipValue() throws IOException {
    JsonToken start = _currToken;
    if (start != JsonToken.START_OBJECT && start != JsonToken.START_ARRAY) {
      return;
    }
    objectAt[0] = start == JsonToken.START_OBJECT;
    int depth = 1;
    int state = objectAt[0] ? KEY_OR_END : VALUE_OR_END;
    int maxDepth = streamReadConstraints().getMaxNestingDepth() - _parsingContext.getNestingDepth() + 1;
    while (true) {
      int b = next(" in a skipped value");
      if (b == ' ' || b == '\t' || b == '\r') {
        continue;
      }
      if (b == '\n') {
        ++_currInputRow;
        _currInputRowStart = _inputPtr;
        continue;
      }
      if (b == '}' || b == ']') {
        boolean object = b == '}';
        boolean endAllowed = state == AFTER_VALUE || (object ? state == KEY_OR_END : state == VALUE_OR_END);
        if (!endAllowed || objectAt[depth - 1] != object) {
          _reportUnexpectedChar(b, "in a skipped value: an end marker where it does not belong");
        }
        if (--depth == 0) {
          _tokenInputTotal = _currInputProcessed + _inputPtr - 1;
          _parsingContext = _parsingContext.clearAndGetParent();
          _currToken = object ? JsonToken.END_OBJECT : JsonToken.END_ARRAY;
          return;
        }
        state = AFTER_VALUE;
        continue;
      }
      switch (state) {
        case KEY_OR_END, KEY -> {
          if (b != '"') {
            _reportUnexpectedChar(b, "in a skipped value: expected a field name");
          }
          skipString();
          state = COLON;
        }
        case COLON -> {
          if (b != ':') {
            _reportUnexpectedChar(b, "in a skipped value: expected a colon after a field name");
          }
          state = VALUE;
        }
        case AFTER_VALUE -> {
          if (b != ',') {
            _reportUnexpectedChar(b, "in a skipped value: expected a comma or an end marker");
          }
          state = objectAt[depth - 1] ? KEY : VALUE;
        }
        default -> { // VALUE_OR_END, VALUE
          if (b == '{' || b == '[') {
            if (depth >= maxDepth) {
              _reportError("a skipped value nests deeper than the maximum of "
                  + streamReadConstraints().getMaxNestingDepth());
            }
            if (depth == objectAt.length) {
              objectAt = Arrays.copyOf(objectAt, depth * 2);
            }
            objectAt[depth++] = b == '{';
            state = b == '{' ? KEY_OR_END : VALUE_OR_END;
          } else {
            skipScalar(b);
            state = AFTER_VALUE;
          }
        }
      }
    }
  }

  /** The next byte (as 0..255), loading more input if need be. */
  private int next(String where) throws IOException {
    if (_inputPtr >= _inputEnd && !_loadMore()) {
      _reportInvalidEOF(where, objectAt[0] ? JsonToken.END_OBJECT : JsonToken.END_ARRAY);
    }
    return _inputBuffer[_inputPtr++] & 0xff;
  }

  /** Moves past a string, a number or a literal whose first byte {@code b} was just read. */
  private void skipScalar(int b) throws IOException {
    switch (b) {
      case '"' -> skipString();
      case 't' -> skipLiteral("true");
      case 'f' -> skipLiteral("false");
      case 'n' -> skipLiteral("null");
      default -> {
        if (b == '-' || (b >= '0' && b <= '9')) {
          skipNumber(b);
        } else {
          _reportUnexpectedChar(b, "in a skipped value: expected a value");
        }
      }
    }
  }

  private void skipLiteral(String literal) throws IOException {
    for (int i = 1; i < literal.length(); i++) {
      if (next(" in a literal of a skipped value") != literal.charAt(i)) {
        _reportError("in a skipped value: a malformed literal (expected '" + literal + "')");
      }
    }
  }

  /**
   * Moves past a number: {@code -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?}, as Jackson
   * reads it by default (no leading zeros, no NaN). The byte after it is left unread.
   */
  private void skipNumber(int first) throws IOException {
    int b = first;
    if (b == '-') {
      b = next(" in a number of a skipped value");
    }
    if (b == '0') {
      b = peekNext();
      if (b >= '0' && b <= '9') {
        _reportError("in a skipped value: a number with a leading zero");
      }
    } else if (b >= '1' && b <= '9') {
      b = skipDigits();
    } else {
      _reportUnexpectedChar(b, "in a skipped value: expected a digit");
    }
    if (b == '.') {
      _inputPtr++;
      requireDigit();
      b = skipDigits();
    }
    if (b == 'e' || b == 'E') {
      _inputPtr++;
      b = peekNext();
      if (b == '+' || b == '-') {
        _inputPtr++;
      }
      requireDigit();
      skipDigits();
    }
  }

  private void requireDigit() throws IOException {
    int b = peekNext();
    if (b < '0' || b > '9') {
      _reportError("in a skipped value: a number without digits where they are required");
    }
  }

  /** Moves past digits; returns the byte after them, unread (-1 at the end of the input). */
  private int skipDigits() throws IOException {
    int b;
    while ((b = peekNext()) >= '0' && b <= '9') {
      _inputPtr++;
    }
    return b;
  }

  /** The next byte without reading it (-1 at the end of the input). */
  private int peekNext() throws IOException {
    if (_inputPtr >= _inputEnd && !_loadMore()) {
      return -1;
    }
    return _inputBuffer[_inputPtr] & 0xff;
  }

  /** What a byte in a string asks of {@link #skipString}: nothing (0), or to look at it. */
  private static final byte[] STRING_BYTES = new byte[256];
  private static final byte QUOTE = 1;
  private static final byte BACKSLASH = 2;
  private static final byte CONTROL = 3;
  private static final byte NON_ASCII = 4;

  static {
    for (int b = 0; b < 0x20; b++) {
      STRING_BYTES[b] = CONTROL;
    }
    for (int b = 0x80; b < 0x100; b++) {
      STRING_BYTES[b] = NON_ASCII;
    }
    STRING_BYTES['"'] = QUOTE;
    STRING_BYTES['\\'] = BACKSLASH;
  }

  /**
   * Moves past the rest of a string whose opening quote was just read, checking its escapes,
   * that it has no raw control character, and that its bytes are well-formed UTF-8. Most bytes
   * of a skipped value are in strings: the loop over plain ones keeps the buffer's position in a
   * local and looks each byte up once.
   */
  private void skipString() throws IOException {
    while (true) {
      byte[] buffer = _inputBuffer;
      int ptr = _inputPtr;
      int end = _inputEnd;
      int code = 0;
      int b = 0;
      while (ptr < end) {
        b = buffer[ptr++] & 0xff;
        code = STRING_BYTES[b];
        if (code != 0) {
          break;
        }
      }
      _inputPtr = ptr;
      if (code == 0) { // the buffer ran out inside the string
        if (!_loadMore()) {
          _reportInvalidEOF(" in a string of a skipped value", JsonToken.VALUE_STRING);
        }
        continue;
      }
      switch (code) {
        case QUOTE -> {
          return;
        }
        case BACKSLASH -> skipEscape();
        case CONTROL -> _reportUnexpectedChar(b, "in a skipped value: a control character in a string must be escaped");
        default -> skipUtf8Continuations(b);
      }
    }
  }

  private void skipEscape() throws IOException {
    int e = next(" in a string of a skipped value");
    switch (e) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
      }
      case 'u' -> {
        for (int i = 0; i < 4; i++) {
          int h = next(" in a string of a skipped value");
          if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
            _reportUnexpectedChar(h, "in a skipped value: expected a hex digit of a \\u escape");
          }
        }
      }
      default -> _reportUnexpectedChar(e, "in a skipped value: an unknown escape");
    }
  }

  /** Checks the rest of a UTF-8 sequence whose first byte {@code b} (0x80 or more) was just read. */
  private void skipUtf8Continuations(int b) throws IOException {
    int continuations = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (continuations < 0) {
      _reportError("in a skipped value: invalid UTF-8 start byte 0x" + Integer.toHexString(b));
    }
    for (int i = 0; i < continuations; i++) {
      int c = next(" in a string of a skipped value");
      if ((c & 0xc0) != 0x80) {
        _reportError("in a skipped value: invalid UTF-8 middle byte 0x" + Integer.toHexString(c));
      }
    }
  }
}
