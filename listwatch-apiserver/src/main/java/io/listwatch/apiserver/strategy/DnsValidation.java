package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube 1.32's {@code validatePodDNSConfig} and {@code ValidateHostAliases}: with
 * {@code dnsPolicy: None} a {@code dnsConfig} with at least one nameserver; at most 3
 * nameservers, each an IP; at most 32 search domains, 2048 characters in all, each a DNS
 * subdomain (a trailing dot allowed); options named. A host alias's {@code ip} is an IP and its
 * hostnames DNS subdomains. Stateless.
 */
final class DnsValidation {

  private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
  private static final String IP_ERR = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

  private DnsValidation() {
  }

  /** The errors of {@code spec.dnsConfig} (read with {@code spec.dnsPolicy}), found at {@code path}. */
  static void dnsConfig(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode config = spec.path("dnsConfig");
    boolean present = config.isObject();
    if (text(spec, "dnsPolicy").equals("None")) {
      if (!present) {
        errors.add(FieldErrors.required(path, "must provide `dnsConfig` when `dnsPolicy` is None"));
        return;
      }
      if (config.path("nameservers").isEmpty()) {
        errors.add(FieldErrors.required(path + ".nameservers", "must provide at least one DNS nameserver when `dnsPolicy` is None"));
        return;
      }
    }
    if (!present) {
      return;
    }
    List<String> nameservers = strings(config.path("nameservers"));
    if (nameservers.size() > 3) {
      errors.add(FieldErrors.invalid(path + ".nameservers", nameservers, "must not have more than 3 nameservers"));
    }
    for (int i = 0; i < nameservers.size(); i++) {
      ip(nameservers.get(i), path + ".nameservers[" + i + "]", errors);
    }
    List<String> searches = strings(config.path("searches"));
    if (searches.size() > 32) {
      errors.add(FieldErrors.invalid(path + ".searches", searches, "must not have more than 32 search paths"));
    }
    if (String.join(" ", searches).length() > 2048) {
      errors.add(FieldErrors.invalid(path + ".searches", searches,
          "must not have more than 2048 characters (including spaces) in the search list"));
    }
    for (int i = 0; i < searches.size(); i++) {
      String search = searches.get(i);
      PodSpecValidation.subdomain(search.endsWith(".") ? search.substring(0, search.length() - 1) : search,
          path + ".searches[" + i + "]", errors);
    }
    JsonNode options = config.path("options");
    for (int i = 0; i < options.size(); i++) {
      if (text(options.get(i), "name").isEmpty()) {
        errors.add(FieldErrors.required(path + ".options[" + i + "]", "must not be empty"));
      }
    }
  }

  /** kube's {@code ValidateHostAliases}. */
  static void hostAliases(JsonNode aliases, String path, List<Status.Cause> errors) {
    for (int i = 0; i < aliases.size(); i++) {
      JsonNode alias = aliases.get(i);
      ip(text(alias, "ip"), path + "[" + i + "].ip", errors);
      JsonNode hostnames = alias.path("hostnames");
      for (int j = 0; j < hostnames.size(); j++) {
        PodSpecValidation.subdomain(hostnames.get(j).asText(), path + "[" + i + "].hostnames[" + j + "]", errors);
      }
    }
  }

  /** kube's {@code IsValidIP} (Go's {@code ParseIP}, leading zeros allowed in IPv4): no name lookup. */
  private static void ip(String value, String path, List<Status.Cause> errors) {
    if (!isIp(value)) {
      errors.add(FieldErrors.invalid(path, value, IP_ERR));
    }
  }

  static boolean isIp(String s) {
    java.util.regex.Matcher m = IPV4.matcher(s);
    if (m.matches()) {
      for (int g = 1; g <= 4; g++) {
        if (Integer.parseInt(m.group(g)) > 255) {
          return false;
        }
      }
      return true;
    }
    if (!s.contains(":") || !s.matches("[0-9a-fA-F:.]+")) {
      return false;
    }
    try {
      java.net.InetAddress.getByName(s); // a literal with ':' is parsed, never looked up
      return true;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : array) {
      out.add(n.asText());
    }
    return out;
  }
}
