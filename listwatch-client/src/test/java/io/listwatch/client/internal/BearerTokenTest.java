package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerTokenTest {

  @Test
  void tokenFile_isReReadAfterTheRefreshPeriod_soARotatedTokenIsUsed(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, "first\n");
    AtomicLong now = new AtomicLong();
    BearerToken token = new BearerToken(null, file, now::get);

    assertThat(token.current()).contains("first");
    Files.writeString(file, "second");
    now.addAndGet(BearerToken.REFRESH.toNanos() - 1);
    assertThat(token.current()).as("cached within the period").contains("first");
    now.addAndGet(1);
    assertThat(token.current()).contains("second");
  }

  @Test
  void tokenFile_keepsTheLastGoodToken_whenTheFileDisappearsOrIsEmpty(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, "good");
    AtomicLong now = new AtomicLong();
    BearerToken token = new BearerToken("static", file, now::get);
    assertThat(token.current()).as("the file wins over the static token").contains("good");

    Files.writeString(file, "  ");
    now.addAndGet(BearerToken.REFRESH.toNanos());
    assertThat(token.current()).contains("good");
    Files.delete(file);
    now.addAndGet(BearerToken.REFRESH.toNanos());
    assertThat(token.current()).contains("good");
  }

  @Test
  void staticToken_isUsedAsIs_andNoTokenIsEmpty() {
    assertThat(new BearerToken("abc", null, System::nanoTime).current()).contains("abc");
    assertThat(new BearerToken(null, null, System::nanoTime).current()).isEmpty();
  }
}
