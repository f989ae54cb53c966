package dev.mcpfusion.outbound;

/**
 * Why an address is not on the public internet. The agent never reads which one applied (that
 * would tell it what a name resolves to inside the network); tests and the README do.
 */
enum Range {
  LOOPBACK,
  PRIVATE,
  LINK_LOCAL,
  SHARED_CGNAT,
  UNIQUE_LOCAL,
  MULTICAST,
  UNSPECIFIED,
  BROADCAST,
  DOCUMENTATION,
  BENCHMARK,
  RESERVED,
  METADATA
}
