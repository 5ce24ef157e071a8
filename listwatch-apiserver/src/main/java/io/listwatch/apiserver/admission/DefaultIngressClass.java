package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's {@code DefaultIngressClass} admission plug-in: a new Ingress that names no class (no
 * {@code spec.ingressClassName}, no annotation {@code kubernetes.io/ingress.class}) gets the
 * default IngressClass's name: the class annotated
 * {@code ingressclass.kubernetes.io/is-default-class: "true"}, the newest of several. Mutating
 * only.
 * Thread-safe: no state beyond its listers.
 */
public final class DefaultIngressClass implements AdmissionPlugin {

  static final String GROUP = "networking.k8s.io";
  static final String IS_DEFAULT = "ingressclass.kubernetes.io/is-default-class";
  static final String CLASS_ANNOTATION = "kubernetes.io/ingress.class";

  private final Listers listers;

  public DefaultIngressClass(Listers listers) {
    this.listers = listers;
  }

  @Override
  public void admit(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, GROUP, "ingresses")) {
      return;
    }
    ObjectNode spec = AdmittedObjects.object(a.object(), "spec");
    if (AdmittedObjects.isSet(spec, "ingressClassName") || AdmittedObjects.annotation(a.object(), CLASS_ANNOTATION).isPresent()) {
      return;
    }
    AdmittedObjects.newest(listers.list(GROUP, "ingressclasses", "").stream()
            .filter(c -> AdmittedObjects.annotation(c, IS_DEFAULT).filter("true"::equals).isPresent()).toList())
        .ifPresent(c -> spec.put("ingressClassName", c.path("metadata").path("name").asText()));
  }
}
