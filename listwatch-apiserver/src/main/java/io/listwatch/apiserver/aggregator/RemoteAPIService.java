package io.listwatch.apiserver.aggregator;

import io.listwatch.apiserver.webhook.WebhookClientConfig;
import java.util.List;
import java.util.Map;

/**
 * What the aggregator knows of one APIService served by another server, as last checked by the
 * {@link AvailableConditionController}: where it is, whom to trust, whether it is available,
 * and the resources its server listed. Immutable.
 *
 * @param name the APIService's name ({@code <version>.<group>})
 * @param service the Service in front of the server (its {@code path} unused)
 * @param caBundle the PEM CA bundle its certificate must chain to (empty: the JDK's roots)
 * @param insecureSkipTlsVerify whether its certificate is not checked
 * @param available whether its Available condition is True
 * @param resources its APIResourceList's {@code resources}, or null before it first answered
 */
record RemoteAPIService(String name, String group, String version, int groupPriority, int versionPriority,
    WebhookClientConfig.ServiceReference service, byte[] caBundle, boolean insecureSkipTlsVerify, boolean available,
    List<Map<String, Object>> resources) {
}
