package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube 1.32's {@code validateWindowsSecurityContextOptions}, of a pod's or a container's
 * {@code securityContext.windowsOptions}, with kube's messages: {@code gmsaCredentialSpecName} a
 * DNS-1123 subdomain; {@code gmsaCredentialSpec} not empty and under 64 KiB;
 * {@code runAsUserName} not empty, without control characters, {@code [DOMAIN\]USER} with at most
 * one backslash, the domain under 256 bytes and a NetBIOS or DNS name, the user 1 to 104 bytes,
 * not only periods or spaces and without {@code "/\:;|=,+*?<>@[]}. Lengths are in bytes, as
 * Go's {@code len}. Stateless.
 */
final class WindowsSecurityContextValidation {

  private static final int MAX_GMSA_SPEC_KIB = 64;
  private static final int MAX_DOMAIN_LENGTH = 256;
  private static final int MAX_USER_LENGTH = 104;
  private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1F\\x7F]");
  private static final Pattern NETBIOS = Pattern.compile("[^\\\\/:*?\"<>|.][^\\\\/:*?\"<>|]{0,14}");
  private static final String DNS_LABEL = "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?";
  private static final Pattern DNS = Pattern.compile(DNS_LABEL + "(?:\\." + DNS_LABEL + ")*");
  private static final Pattern INVALID_USER_CHARS = Pattern.compile("[\"/\\\\:;|=,+*?<>@\\[\\]]");
  private static final Pattern ONLY_DOTS_SPACES = Pattern.compile("[. ]+");

  private WindowsSecurityContextValidation() {
  }

  /** Adds the errors of {@code securityContext.windowsOptions}; {@code path} is the options'. */
  static void options(JsonNode securityContext, String path, List<Status.Cause> errors) {
    JsonNode options = securityContext.path("windowsOptions");
    if (!options.isObject()) {
      return;
    }
    if (options.path("gmsaCredentialSpecName").isTextual()) {
      String name = options.path("gmsaCredentialSpecName").textValue();
      for (String msg : NameSyntax.isDns1123Subdomain(name)) {
        errors.add(FieldErrors.invalid(path + ".gmsaCredentialSpecName", name, msg));
      }
    }
    if (options.path("gmsaCredentialSpec").isTextual()) {
      String spec = options.path("gmsaCredentialSpec").textValue();
      if (spec.isEmpty()) {
        errors.add(FieldErrors.invalid(path + ".gmsaCredentialSpec", spec, "gmsaCredentialSpec cannot be an empty string"));
      } else if (NameSyntax.byteLength(spec) > MAX_GMSA_SPEC_KIB * 1024) {
        errors.add(FieldErrors.invalid(path + ".gmsaCredentialSpec", spec,
            "gmsaCredentialSpec size must be under " + MAX_GMSA_SPEC_KIB + " KiB"));
      }
    }
    if (options.path("runAsUserName").isTextual()) {
      runAsUserName(options.path("runAsUserName").textValue(), path + ".runAsUserName", errors);
    }
  }

  private static void runAsUserName(String name, String path, List<Status.Cause> errors) {
    String[] parts = name.split("\\\\", -1);
    if (name.isEmpty()) {
      errors.add(FieldErrors.invalid(path, name, "runAsUserName cannot be an empty string"));
      return;
    }
    if (CONTROL.matcher(name).find()) {
      errors.add(FieldErrors.invalid(path, name, "runAsUserName cannot contain control characters"));
      return;
    }
    if (parts.length > 2) {
      errors.add(FieldErrors.invalid(path, name, "runAsUserName cannot contain more than one backslash"));
      return;
    }
    String domain = parts.length == 2 ? parts[0] : "";
    String user = parts.length == 2 ? parts[1] : parts[0];
    if (NameSyntax.byteLength(domain) >= MAX_DOMAIN_LENGTH) {
      errors.add(FieldErrors.invalid(path, name,
          "runAsUserName's Domain length must be under " + MAX_DOMAIN_LENGTH + " characters"));
    }
    if (parts.length == 2 && !NETBIOS.matcher(domain).matches() && !DNS.matcher(domain).matches()) {
      errors.add(FieldErrors.invalid(path, name, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
    }
    int userLength = NameSyntax.byteLength(user);
    if (userLength == 0) {
      errors.add(FieldErrors.invalid(path, name, "runAsUserName's User cannot be empty"));
    } else if (userLength > MAX_USER_LENGTH) {
      errors.add(FieldErrors.invalid(path, name,
          "runAsUserName's User length must not be longer than " + MAX_USER_LENGTH + " characters"));
    }
    if (ONLY_DOTS_SPACES.matcher(user).matches()) {
      errors.add(FieldErrors.invalid(path, name, "runAsUserName's User cannot contain only periods or spaces"));
    }
    if (INVALID_USER_CHARS.matcher(user).find()) {
      errors.add(FieldErrors.invalid(path, name,
          "runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]"));
    }
  }
}
