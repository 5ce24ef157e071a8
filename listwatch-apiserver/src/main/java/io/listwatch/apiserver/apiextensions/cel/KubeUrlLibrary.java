package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationExceptionBuilder;
import dev.cel.runtime.CelFunctionBinding;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's URL library for CEL: {@code isURL(s)}, {@code url(s)} and, on the URL,
 * {@code getScheme()}, {@code getHost()}, {@code getHostname()}, {@code getPort()},
 * {@code getEscapedPath()} and {@code getQuery()}. A URL is an absolute URI or an absolute path
 * (Go's {@code url.ParseRequestURI}); it is held as a {@link URI}. Stateless; thread-safe.
 */
final class KubeUrlLibrary {

  private static final LibraryType<URI> TYPE =
      new LibraryType<>("url", "isURL", OpaqueType.create("kubernetes.URL"), KubeUrlLibrary::parse);

  private KubeUrlLibrary() {
  }

  static List<CelFunctionDecl> declarations() {
    return TYPE.declarations(
        TYPE.member("getScheme", SimpleType.STRING),
        TYPE.member("getHost", SimpleType.STRING),
        TYPE.member("getHostname", SimpleType.STRING),
        TYPE.member("getPort", SimpleType.STRING),
        TYPE.member("getEscapedPath", SimpleType.STRING),
        TYPE.member("getQuery", MapType.create(SimpleType.STRING,
            ListType.create(SimpleType.STRING))));
  }

  static List<CelFunctionBinding> bindings() {
    return TYPE.bindings(
        CelFunctionBinding.from("kube_url_getScheme", URI.class,
            u -> u.getScheme() == null ? "" : u.getScheme()),
        CelFunctionBinding.from("kube_url_getHost", URI.class, u -> {
          String authority = u.getRawAuthority();
          if (authority == null) {
            return "";
          }
          int at = authority.lastIndexOf('@');
          return at >= 0 ? authority.substring(at + 1) : authority;
        }),
        CelFunctionBinding.from("kube_url_getHostname", URI.class, u -> {
          String host = u.getHost();
          if (host == null) {
            return "";
          }
          return host.startsWith("[") && host.endsWith("]")
              ? host.substring(1, host.length() - 1) : host;
        }),
        CelFunctionBinding.from("kube_url_getPort", URI.class,
            u -> u.getPort() < 0 ? "" : String.valueOf(u.getPort())),
        CelFunctionBinding.from("kube_url_getEscapedPath", URI.class,
            u -> u.getRawPath() == null ? "" : u.getRawPath()),
        CelFunctionBinding.from("kube_url_getQuery", URI.class, KubeUrlLibrary::query));
  }

  private static URI parse(String s) throws CelEvaluationException {
    try {
      URI u = new URI(s);
      if (u.isAbsolute() || (u.getRawPath() != null && u.getRawPath().startsWith("/"))) {
        return u;
      }
    } catch (URISyntaxException e) {
      // reported below, as kube words it
    }
    throw CelEvaluationExceptionBuilder.newBuilder(
        "URL parse error during conversion from string: parse \"%s\": invalid URI for request",
        s).build();
  }

  private static Map<String, List<String>> query(URI u) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    String q = u.getRawQuery();
    if (q == null || q.isEmpty()) {
      return out;
    }
    for (String pair : q.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
    return out;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
