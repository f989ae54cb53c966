/**
 * The cards that describe a connector outside the protocol: an MCP server card and an A2A agent
 * card, built from the lockfile contract and published by fusion-http.
 */
module dev.mcpfusion.cards {
  // Cards.builder(...) takes a LockProfile; the cards are PublicDocuments of fusion-http.
  requires transitive dev.mcpfusion.lock;
  requires transitive dev.mcpfusion.http;
  requires dev.mcpfusion.wire;

  exports dev.mcpfusion.cards;
}
