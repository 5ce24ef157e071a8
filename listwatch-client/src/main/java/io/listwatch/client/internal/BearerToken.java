package io.listwatch.client.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer token to send: a fixed token, or a token file re-read at most once per
 * {@link #REFRESH} (client-go's {@code cachingTokenSource}: projected service-account tokens
 * rotate, and kubelet rewrites the file). When a re-read fails or gives an empty file, the
 * last good token is kept. Thread-safe: guarded by {@code this}.
 */
public final class BearerToken {

  /** How long a token read from the file is used before the file is read again. */
  public static final Duration REFRESH = Duration.ofMinutes(1);
  private static final Logger LOG = LoggerFactory.getLogger(BearerToken.class);

  private final Path file;
  private final LongSupplier nanoTime;
  /** The token to send. */
  @GuardedBy("this")
  private String token;
  /** When the file was last read (nanoTime); valid once {@code read}. */
  @GuardedBy("this")
  private long readAt;
  /** Whether the file was read at least once. */
  @GuardedBy("this")
  private boolean read;

  public BearerToken(String token, Path file, LongSupplier nanoTime) {
    this.token = token;
    this.file = file;
    this.nanoTime = nanoTime;
  }

  /** The token for the next request, if any. */
  public synchronized Optional<String> current() {
    if (file != null) {
      long now = nanoTime.getAsLong();
      if (!read || now - readAt >= REFRESH.toNanos()) {
        readAt = now;
        read = true;
        try {
          String fresh = Files.readString(file, StandardCharsets.UTF_8).strip();
          if (!fresh.isEmpty()) {
            token = fresh;
          }
        } catch (IOException e) {
          LOG.warn("cannot read token file {}; using the last token: {}", file, e.toString());
        }
      }
    }
    return Optional.ofNullable(token);
  }
}
