package dev.mcpfusion.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.ContractLoader;
import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.lock.Lockfile;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.core.Exposition;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockFromClassesTest {

  @Test
  void aRouterWhoseConstructorAndStaticInitialiserThrowStillGetsItsLockfile(@TempDir Path dir) throws Exception {
    Path classes = Connectors.compile(Connectors.billing(), dir);
    try (URLClassLoader loader = ContractLoader.classLoader(List.of(classes), getClass().getClassLoader())) {
      List<RouterDescriptor> routers = ContractLoader.load(classes, loader);
      assertThat(routers).extracting(RouterDescriptor::name).containsExactly("billing");
      Contract contract = Contract.of(routers, LockProfile.defaults());
      assertThat(contract.tools().keySet()).containsExactly("billing_get_invoice", "billing_list_invoices",
          "billing_send_invoice", "billing_void_invoice");
      // Proof nothing of the user's ran: initialising the router class throws, and it was never initialised.
      Class<?> router = Class.forName("acme.BillingTools", false, loader);
      assertThat(routers.get(0).routerType()).isSameAs(router);
      assertThatThrownBy(() -> Class.forName("acme.BillingTools", true, loader))
          .isInstanceOf(ExceptionInInitializerError.class)
          .cause().hasMessageContaining("must never initialise a router class");
    }
  }

  @Test
  void theLockfileIsByteIdenticalAcrossTwoCleanCompilations(@TempDir Path dir) throws Exception {
    Path first = Connectors.compile(Connectors.billing(), dir.resolve("one"));
    Path second = Connectors.compile(Connectors.billing(), dir.resolve("two"));
    String a = Lockfile.write(Connectors.contract(first, LockProfile.defaults()));
    String b = Lockfile.write(Connectors.contract(second, LockProfile.defaults()));
    assertThat(b).isEqualTo(a);
    assertThat(a).contains("\"billing_void_invoice\"").contains("\"destructive\": true")
        .contains("\"acme.Guard\"").contains("\"agentLimit\": 50").doesNotContain(dir.toString());
    assertThat(Lockfile.read(a)).isEqualTo(Connectors.contract(first, LockProfile.defaults()));
  }

  @Test
  void theCompiledConnectorRecordsEveryProperty(@TempDir Path dir) {
    Contract contract = Connectors.contract(Connectors.compile(Connectors.billing(), dir), LockProfile.defaults());
    var get = contract.tools().get("billing_get_invoice").actions().get("get_invoice");
    assertThat(get.readOnly()).isTrue();
    assertThat(get.requiredFields()).containsExactly("id");
    assertThat(get.middleware()).containsExactly("acme.Guard");
    assertThat(get.presenter().name()).isEqualTo("acme.InvoiceView");
    assertThat(get.presenter().fields()).containsExactly("id", "totalCents");
    assertThat(get.presenter().rules()).containsExactly("id: Invoice ID, e.g. INV-0042",
        "totalCents: Total in integer cents", "Money is in integer cents.");
    assertThat(get.presenter().dynamicRules()).isFalse();
    var send = contract.tools().get("billing_send_invoice").actions().get("send_invoice");
    assertThat(send.presenter()).isNull();
    assertThat(send.limits()).isEmpty();
    assertThat(contract.tools().get("billing_void_invoice").actions().get("void_invoice").invalidates())
        .containsExactly("billing.*");
  }

  @Test
  void theServingProfileComesFromTheProfileClass(@TempDir Path dir) throws Exception {
    Map<String, String> files = new java.util.LinkedHashMap<>(Connectors.billing());
    files.put("acme/Serving.java", """
        package acme;

        import dev.mcpfusion.core.Exposition;
        import dev.mcpfusion.lock.LockProfile;
        import java.util.List;

        public final class Serving {
          public static LockProfile lockProfile() {
            return new LockProfile(Exposition.GROUPED, "-", List.of(Audit.class.getName()));
          }
        }
        """);
    Path classes = Connectors.compile(files, dir);
    try (URLClassLoader loader = ContractLoader.classLoader(List.of(classes), getClass().getClassLoader())) {
      LockProfile profile = ContractLoader.profile("acme.Serving", loader);
      assertThat(profile).isEqualTo(new LockProfile(Exposition.GROUPED, "-", List.of("acme.Audit")));
      Contract contract = Contract.of(ContractLoader.load(classes, loader), profile);
      assertThat(contract.tools().keySet()).containsExactly("billing");
      assertThat(contract.tools().get("billing").actions().get("get_invoice").middleware())
          .containsExactly("acme.Audit", "acme.Guard");
      assertThat(ContractLoader.profile(null, loader)).isEqualTo(LockProfile.defaults());
      assertThatThrownBy(() -> ContractLoader.profile("acme.Guard", loader))
          .hasMessageContaining("acme.Guard has no \"public static LockProfile lockProfile()\"");
    }
  }

  @Test
  void aStaticDescribeMethodIsPreferredOverTheField(@TempDir Path dir) throws Exception {
    Map<String, String> files = Map.of("acme/Ping_Fusion.java", """
        package acme;

        import dev.mcpfusion.core.spi.*;
        import java.util.List;
        import java.util.Map;

        public final class Ping_Fusion implements GeneratedRouter {
          private static final RouterDescriptor DESCRIPTOR =
              new RouterDescriptor("from_field", "", Object.class, List.of(), List.of(), List.of());

          public static RouterDescriptor describe() {
            return new RouterDescriptor("from_describe", "", Object.class, List.of(), List.of(), List.of());
          }

          @Override public int spiVersion() { return FusionSpi.VERSION; }
          @Override public RouterDescriptor descriptor() { return DESCRIPTOR; }
          @Override public Object[] decode(int a, Map<String, ?> args, Problems p) { return new Object[0]; }
          @Override public Object invoke(int a, Object[] args, ContextLookup c) { return null; }
        }
        """);
    Path classes = Connectors.compile(files, dir);
    try (URLClassLoader loader = ContractLoader.classLoader(List.of(classes), getClass().getClassLoader())) {
      assertThat(ContractLoader.load(classes, loader)).extracting(RouterDescriptor::name)
          .containsExactly("from_describe");
    }
  }

  @Test
  void classesGeneratedBeforeDescribeExistedAreReadThroughTheirDescriptorField(@TempDir Path dir) throws Exception {
    Map<String, String> files = Map.of("acme/Old_Fusion.java", """
        package acme;

        import dev.mcpfusion.core.spi.*;
        import java.util.List;
        import java.util.Map;

        public final class Old_Fusion implements GeneratedRouter {
          private static final RouterDescriptor DESCRIPTOR =
              new RouterDescriptor("from_field", "", Object.class, List.of(), List.of(), List.of());

          @Override public int spiVersion() { return FusionSpi.VERSION; }
          @Override public RouterDescriptor descriptor() { return DESCRIPTOR; }
          @Override public Object[] decode(int a, Map<String, ?> args, Problems p) { return new Object[0]; }
          @Override public Object invoke(int a, Object[] args, ContextLookup c) { return null; }
        }
        """);
    Path classes = Connectors.compile(files, dir);
    try (URLClassLoader loader = ContractLoader.classLoader(List.of(classes), getClass().getClassLoader())) {
      assertThat(ContractLoader.load(classes, loader)).extracting(RouterDescriptor::name)
          .containsExactly("from_field");
    }
  }

  @Test
  void theProcessorGeneratesTheStaticDescribeMethod(@TempDir Path dir) throws Exception {
    Path classes = Connectors.compile(Connectors.billing(), dir);
    try (URLClassLoader loader = ContractLoader.classLoader(List.of(classes), getClass().getClassLoader())) {
      Class<?> generated = Class.forName("acme.BillingTools_Fusion", false, loader);
      assertThat(java.lang.reflect.Modifier.isStatic(generated.getMethod("describe").getModifiers())).isTrue();
    }
  }

  @Test
  void aRouterClassLeadsToItsGeneratedDescriptorWithoutBeingInitialised(@TempDir Path dir) throws Exception {
    Path classes = Connectors.compile(Connectors.billing(), dir);
    try (URLClassLoader loader = ContractLoader.classLoader(List.of(classes), getClass().getClassLoader())) {
      Class<?> router = Class.forName("acme.BillingTools", false, loader);
      assertThat(ContractLoader.describeRouter(router).name()).isEqualTo("billing");
      assertThatThrownBy(() -> ContractLoader.describeRouter(Class.forName("acme.Guard", false, loader)))
          .hasMessageContaining("No generated acme.Guard_Fusion");
      assertThatThrownBy(() -> Class.forName("acme.BillingTools", true, loader))
          .isInstanceOf(ExceptionInInitializerError.class);
    }
  }

  @Test
  void anEmptyClassesDirectoryHasNoRouters(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("x"));
    assertThat(ContractLoader.generatedRouters(dir)).isEmpty();
    assertThat(ContractLoader.generatedRouters(dir.resolve("missing"))).isEmpty();
  }
}
