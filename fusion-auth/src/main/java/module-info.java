/** An OAuth 2.1 resource server for fusion-http: JWT access tokens, introspection, API keys. */
module dev.mcpfusion.auth {
  requires transitive dev.mcpfusion.http;
  requires com.nimbusds.jose.jwt;
  requires java.net.http;
  requires org.slf4j;

  exports dev.mcpfusion.auth;
}
