package io.listwatch.client.internal;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.IOContext;
import java.io.IOException;
import java.io.InputStream;

/**
 * The client's Jackson factory: Jackson's own, except that a parser over a
 * {@link RecordingInputStream} (a REST response body, UTF-8 JSON) is a
 * {@link SkippingJsonParser}, which can skip a value without tokenizing it. Every other
 * input gets Jackson's parser, with its encoding detection.
 *
 * <p>Thread-safe, as {@link JsonFactory}.
 */
final class SkippingJsonFactory extends JsonFactory {

  private static final long serialVersionUID = 1L;

  @Override
  protected JsonParser _createParser(InputStream in, IOContext ctxt) throws IOException {
    if (!(in instanceof RecordingInputStream)) {
      return super._createParser(in, ctxt);
    }
    ctxt.setEncoding(JsonEncoding.UTF8);
    return new SkippingJsonParser(ctxt, _parserFeatures, in, _objectCodec,
        _byteSymbolCanonicalizer.makeChildOrPlaceholder(_factoryFeatures), ctxt.allocReadIOBuffer());
  }
}
