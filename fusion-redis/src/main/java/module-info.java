/** Fleet state on Redis: the event, task and session stores, subscriptions and budgets. */
module dev.mcpfusion.redis {
  requires transitive dev.mcpfusion.core;
  requires transitive dev.mcpfusion.http;
  // The JSON and the JSON-RPC code of the error a task lost with its instance carries.
  requires dev.mcpfusion.wire;
  requires lettuce.core;
  requires org.slf4j;

  exports dev.mcpfusion.redis;
}
