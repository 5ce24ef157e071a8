package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Static bearer tokens from {@code --token-auth-file}, in kube's CSV format: one line per token,
 * {@code token,user,uid[,"group1,group2,..."]}. Columns after the fourth are ignored; a group
 * list with commas must be quoted, with {@code ""} for a literal quote (RFC 4180, as Go's CSV
 * reader reads it). Blank lines are skipped. The file is read once, at startup; a malformed
 * line stops the server with its line number.
 *
 * <p>Tokens are compared in constant time. Immutable and thread-safe.
 */
public final class TokenFileAuthenticator implements TokenAuthenticator {

  private static final Logger LOG = LoggerFactory.getLogger(TokenFileAuthenticator.class);

  private final Map<String, UserInfo> users;

  private TokenFileAuthenticator(Map<String, UserInfo> users) {
    this.users = Map.copyOf(users);
  }

  /** Reads a token file. */
  public static TokenFileAuthenticator load(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the token file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses a token file's content.
   *
   * @param source the file's name, for error messages
   * @throws IllegalArgumentException naming the line, for a malformed CSV record or a record
   *     with fewer than 3 columns
   */
  public static TokenFileAuthenticator parse(String content, String source) {
    Map<String, UserInfo> users = new HashMap<>();
    CsvReader reader = new CsvReader(content, source);
    int recordNumber = 0;
    for (List<String> record; (record = reader.next()) != null; ) {
      recordNumber++;
      if (record.size() < 3) {
        throw new IllegalArgumentException("token file '" + source + "' must have at least 3 columns "
            + "(token, user name, user uid), found " + record.size() + " on line " + reader.recordLine());
      }
      if (record.get(0).isEmpty()) {
        LOG.warn("empty token in token file '{}', record {}: skipped", source, recordNumber);
        continue;
      }
      List<String> groups = record.size() >= 4
          ? Arrays.stream(record.get(3).split(",")).filter(g -> !g.isEmpty()).toList()
          : List.of();
      UserInfo user = new UserInfo(record.get(1), record.get(2), groups, Map.of());
      if (users.put(record.get(0), user) != null) {
        LOG.warn("duplicate token in token file '{}', record {}: the later one wins", source, recordNumber);
      }
    }
    return new TokenFileAuthenticator(users);
  }

  /** How many tokens the file holds. */
  public int size() {
    return users.size();
  }

  @Override
  public Optional<Response> authenticateToken(String token, Set<String> audiences) {
    byte[] presented = token.getBytes(StandardCharsets.UTF_8);
    UserInfo match = null;
    for (Map.Entry<String, UserInfo> e : users.entrySet()) { // no early exit: constant time in the match
      if (MessageDigest.isEqual(presented, e.getKey().getBytes(StandardCharsets.UTF_8))) {
        match = e.getValue();
      }
    }
    return match == null ? Optional.empty() : Optional.of(new Response(match, List.of()));
  }

  /**
   * Go's {@code encoding/csv} reader with a variable number of fields per record: fields split on
   * commas, records on LF or CRLF; a field that starts with a quote runs to the matching quote
   * (doubled quotes are literal, commas and newlines allowed); a quote inside an unquoted field,
   * or text after a closing quote, is an error. Empty lines are skipped. Confined to one thread.
   */
  private static final class CsvReader {
    private final String s;
    private final String source;
    private int pos;
    private int line = 1;
    private int recordLine;

    CsvReader(String content, String source) {
      this.s = content;
      this.source = source;
    }

    /** The line the last record started on. */
    int recordLine() {
      return recordLine;
    }

    /** The next record, or null at the end. */
    List<String> next() {
      while (pos < s.length() && (s.charAt(pos) == '\n' || s.startsWith("\r\n", pos))) {
        pos += s.charAt(pos) == '\n' ? 1 : 2;
        line++;
      }
      if (pos >= s.length()) {
        return null;
      }
      recordLine = line;
      List<String> fields = new ArrayList<>();
      while (true) {
        int fieldLine = line;
        int column = pos - s.lastIndexOf('\n', pos - 1);
        StringBuilder field = new StringBuilder();
        if (pos < s.length() && s.charAt(pos) == '"') {
          pos++;
          while (true) {
            if (pos >= s.length()) {
              throw error(fieldLine, column, "extraneous or missing \" in quoted-field");
            }
            char c = s.charAt(pos++);
            if (c == '"') {
              if (pos < s.length() && s.charAt(pos) == '"') {
                field.append('"');
                pos++;
                continue;
              }
              break;
            }
            if (c == '\n') {
              line++;
            }
            field.append(c);
          }
          if (pos < s.length() && s.charAt(pos) != ',' && s.charAt(pos) != '\n' && !s.startsWith("\r\n", pos)) {
            throw error(line, pos - s.lastIndexOf('\n', pos - 1), "extraneous or missing \" in quoted-field");
          }
        } else {
          while (pos < s.length() && s.charAt(pos) != ',' && s.charAt(pos) != '\n' && !s.startsWith("\r\n", pos)) {
            char c = s.charAt(pos);
            if (c == '"') {
              throw error(line, pos - s.lastIndexOf('\n', pos - 1), "bare \" in non-quoted-field");
            }
            field.append(c);
            pos++;
          }
        }
        fields.add(field.toString());
        if (pos < s.length() && s.charAt(pos) == ',') {
          pos++;
          continue;
        }
        if (pos < s.length()) { // end of line
          pos += s.charAt(pos) == '\n' ? 1 : 2;
          line++;
        }
        return fields;
      }
    }

    private IllegalArgumentException error(int atLine, int column, String what) {
      return new IllegalArgumentException("token file '" + source + "': parse error on line " + atLine
          + ", column " + column + ": " + what);
    }
  }
}
