/** The in-RAM tester and its AssertJ assertions, for JUnit Jupiter (5.13+ or 6.x) tests of a connector. */
module dev.mcpfusion.testing {
  requires transitive dev.mcpfusion.core;
  requires dev.mcpfusion.wire;
  // LockfileAssertions.assertMatchesLockfile takes a LockProfile.
  requires transitive dev.mcpfusion.lock;
  // FusionTester and its assertions extend AssertJ and JUnit types.
  requires transitive org.assertj.core;
  requires transitive org.junit.jupiter.api;
  requires tools.jackson.core;
  requires tools.jackson.databind;
  requires org.slf4j;

  exports dev.mcpfusion.testing;
}
