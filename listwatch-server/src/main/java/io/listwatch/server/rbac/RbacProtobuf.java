package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.server.rest.KubeProtobuf;
import io.listwatch.server.rest.KubeProtobuf.Reader;

/**
 * Reads Roles, ClusterRoles, RoleBindings and ClusterRoleBindings sent in kube's protobuf form
 * ({@code kubectl create role|clusterrole|rolebinding|clusterrolebinding} send them so) into their
 * JSON form. The rbac.authorization.k8s.io/v1 messages: a role is (1: metadata, 2: rules,
 * 3: aggregationRule {1: clusterRoleSelectors}); a binding is (1: metadata, 2: subjects, 3: roleRef);
 * a rule is (1: verbs, 2: apiGroups, 3: resources, 4: resourceNames, 5: nonResourceURLs); a
 * subject (1: kind, 2: apiGroup, 3: name, 4: namespace); a roleRef (1: apiGroup, 2: kind, 3: name);
 * a label selector (1: matchLabels, 2: matchExpressions {1: key, 2: operator, 3: values}). Of the
 * object metadata, name (1), generateName (2), namespace (3), resourceVersion (6), labels (11),
 * annotations (12) and finalizers (14) are read. Stateless.
 */
final class RbacProtobuf {

  private static final String[] RULE = {null, "verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"};

  private RbacProtobuf() {
  }

  static ObjectNode decode(byte[] body) {
    KubeProtobuf.Envelope envelope = KubeProtobuf.unwrap(body);
    if (!envelope.apiVersion().equals(RbacValidation.GROUP + "/v1")) {
      throw StatusException.badRequest("the API version in the data (" + envelope.apiVersion()
          + ") does not match the expected API version (" + RbacValidation.GROUP + "/v1)");
    }
    boolean binding = envelope.kind().endsWith("Binding");
    ObjectNode obj = JsonNodeFactory.instance.objectNode();
    obj.put("apiVersion", envelope.apiVersion()).put("kind", envelope.kind());
    Reader in = new Reader(envelope.raw());
    while (in.more()) {
      int f = in.tag();
      if (!in.isBytes()) {
        in.skip();
      } else if (f == 1) {
        obj.set("metadata", metadata(in.message()));
      } else if (f == 2 && binding) {
        ObjectNode subject = strings(in.message(), new String[] {null, "kind", "apiGroup", "name", "namespace"});
        // as kube's JSON form: a subject's apiGroup and namespace are left out when empty
        for (String field : new String[] {"apiGroup", "namespace"}) {
          if (subject.path(field).asText("").isEmpty()) {
            subject.remove(field);
          }
        }
        obj.withArray("subjects").add(subject);
      } else if (f == 2) {
        obj.withArray("rules").add(rule(in.message()));
      } else if (f == 3 && binding) {
        obj.set("roleRef", strings(in.message(), new String[] {null, "apiGroup", "kind", "name"}));
      } else if (f == 3) {
        obj.set("aggregationRule", aggregationRule(in.message()));
      } else {
        in.skip();
      }
    }
    return obj;
  }

  private static ObjectNode metadata(Reader in) {
    ObjectNode meta = JsonNodeFactory.instance.objectNode();
    while (in.more()) {
      int f = in.tag();
      if (!in.isBytes()) {
        in.skip();
        continue;
      }
      switch (f) {
        case 1 -> putNonEmpty(meta, "name", in.string());
        case 2 -> putNonEmpty(meta, "generateName", in.string());
        case 3 -> putNonEmpty(meta, "namespace", in.string());
        case 6 -> putNonEmpty(meta, "resourceVersion", in.string());
        case 11 -> entry(in.message(), meta.withObject("labels"));
        case 12 -> entry(in.message(), meta.withObject("annotations"));
        case 14 -> meta.withArray("finalizers").add(in.string());
        default -> in.skip();
      }
    }
    return meta;
  }

  private static ObjectNode rule(Reader in) {
    ObjectNode rule = JsonNodeFactory.instance.objectNode();
    rule.putArray("verbs");
    while (in.more()) {
      int f = in.tag();
      if (f < RULE.length && in.isBytes()) {
        rule.withArray(RULE[f]).add(in.string());
      } else {
        in.skip();
      }
    }
    return rule;
  }

  private static ObjectNode aggregationRule(Reader in) {
    ObjectNode rule = JsonNodeFactory.instance.objectNode();
    ArrayNode selectors = rule.putArray("clusterRoleSelectors");
    while (in.more()) {
      if (in.tag() == 1 && in.isBytes()) {
        selectors.add(labelSelector(in.message()));
      } else {
        in.skip();
      }
    }
    return rule;
  }

  private static ObjectNode labelSelector(Reader in) {
    ObjectNode selector = JsonNodeFactory.instance.objectNode();
    while (in.more()) {
      int f = in.tag();
      if (f == 1 && in.isBytes()) {
        entry(in.message(), selector.withObject("matchLabels"));
      } else if (f == 2 && in.isBytes()) {
        ObjectNode expr = selector.withArray("matchExpressions").addObject();
        Reader e = in.message();
        while (e.more()) {
          int g = e.tag();
          if (g == 1 && e.isBytes()) {
            expr.put("key", e.string());
          } else if (g == 2 && e.isBytes()) {
            expr.put("operator", e.string());
          } else if (g == 3 && e.isBytes()) {
            expr.withArray("values").add(e.string());
          } else {
            e.skip();
          }
        }
      } else {
        in.skip();
      }
    }
    return selector;
  }

  /** Protobuf always carries these strings; kube's JSON form leaves them out when empty. */
  private static void putNonEmpty(ObjectNode o, String field, String value) {
    if (!value.isEmpty()) {
      o.put(field, value);
    }
  }

  /** A map entry message (1: key, 2: value) into {@code target}. */
  private static void entry(Reader in, ObjectNode target) {
    String key = "";
    String value = "";
    while (in.more()) {
      int f = in.tag();
      if (f == 1 && in.isBytes()) {
        key = in.string();
      } else if (f == 2 && in.isBytes()) {
        value = in.string();
      } else {
        in.skip();
      }
    }
    target.put(key, value);
  }

  /** A message of string fields, named by field number. */
  private static ObjectNode strings(Reader in, String[] names) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    while (in.more()) {
      int f = in.tag();
      if (f < names.length && names[f] != null && in.isBytes()) {
        o.put(names[f], in.string());
      } else {
        in.skip();
      }
    }
    return o;
  }
}
