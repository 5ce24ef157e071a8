package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import org.junit.jupiter.api.Test;

class SecretConversionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResourceDefinition SECRETS = ResourceDefinition.builder("", "v1", "Secret", "secrets").build();
  private static final ResourceDefinition CONFIGMAPS =
      ResourceDefinition.builder("", "v1", "ConfigMap", "configmaps").build();

  private static ObjectNode object(String json) throws Exception {
    return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
  }

  @Test
  void stringData_replacesTheDataEntriesWithItsKeys_base64Encoded_andIsNotKept() throws Exception {
    ObjectNode secret = object("{'kind':'Secret','data':{'user':'YWRtaW4=','password':'b2xk'},"
        + "'stringData':{'password':'s3cret ü'}}");

    SecretConversion.convertWritten(SECRETS, secret);

    assertThat(secret).isEqualTo(object("{'kind':'Secret','data':{'user':'YWRtaW4=','password':'czNjcmV0IMO8'}}"));
  }

  @Test
  void stringData_withoutData_createsIt() throws Exception {
    ObjectNode secret = object("{'kind':'Secret','stringData':{'token':'abc'}}");

    SecretConversion.convertWritten(SECRETS, secret);

    assertThat(secret).isEqualTo(object("{'kind':'Secret','data':{'token':'YWJj'}}"));
  }

  @Test
  void otherKinds_keepAFieldNamedStringData() throws Exception {
    ObjectNode configMap = object("{'kind':'ConfigMap','stringData':{'a':'b'}}");

    SecretConversion.convertWritten(CONFIGMAPS, configMap);

    assertThat(configMap).isEqualTo(object("{'kind':'ConfigMap','stringData':{'a':'b'}}"));
  }
}
