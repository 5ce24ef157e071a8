package io.listwatch.server.cli;

import io.listwatch.server.authn.AuthenticationConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The authentication flags of {@code ./listwatch server}, named as kube-apiserver names them. */
final class AuthenticationOptions {

  @Option(names = "--anonymous-auth", arity = "0..1", defaultValue = "true", fallbackValue = "true",
      description = "Requests without credentials act as system:anonymous (default: ${DEFAULT-VALUE}); "
          + "false answers them 401.")
  boolean anonymousAuth = true;

  @Option(names = "--token-auth-file", paramLabel = "FILE",
      description = "Static bearer tokens, one per line: token,user,uid,\"group1,group2\".")
  Path tokenAuthFile;

  @Option(names = "--service-account-signing-key-file", paramLabel = "FILE",
      description = "PEM (PKCS#8) private key that signs service account tokens "
          + "(default: one generated into the data dir on first start).")
  Path serviceAccountSigningKeyFile;

  @Option(names = "--service-account-key-file", paramLabel = "FILE",
      description = "PEM public keys or certificates that also verify service account tokens (repeatable).")
  List<Path> serviceAccountKeyFiles = new ArrayList<>();

  @Option(names = "--service-account-issuer", paramLabel = "URL",
      description = "Issuer of service account tokens (repeatable); the first issues, all are accepted "
          + "(default: " + AuthenticationConfig.DEFAULT_ISSUER + ").")
  List<String> serviceAccountIssuers = new ArrayList<>();

  @Option(names = "--api-audiences", paramLabel = "AUDIENCE", split = ",",
      description = "Audiences a token must be valid for to reach the API (default: the issuers).")
  List<String> apiAudiences = new ArrayList<>();

  AuthenticationConfig config() {
    return AuthenticationConfig.builder()
        .anonymousAuth(anonymousAuth)
        .tokenAuthFile(tokenAuthFile)
        .serviceAccountSigningKeyFile(serviceAccountSigningKeyFile)
        .serviceAccountKeyFiles(serviceAccountKeyFiles)
        .serviceAccountIssuers(serviceAccountIssuers)
        .apiAudiences(apiAudiences)
        .build();
  }
}
