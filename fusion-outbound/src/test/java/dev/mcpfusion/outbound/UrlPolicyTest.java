package dev.mcpfusion.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.wire.Codes;
import java.net.InetAddress;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlPolicyTest {
  private static String reason(UrlPolicy policy, String url) {
    FusionError error = catchThrowableOfType(FusionError.class, () -> policy.check(url));
    assertThat(error).as(url).isNotNull();
    assertThat(error.code()).isEqualTo(Codes.OUTBOUND_BLOCKED);
    return String.valueOf(error.details().get("reason"));
  }

  @ParameterizedTest(name = "{0} reads as {1}")
  @CsvSource({
      "http://2130706433:8080/x, http://127.0.0.1:8080/x",
      "http://0177.0.0.1:8080/x, http://127.0.0.1:8080/x",
      "http://0x7f.1:8080/x, http://127.0.0.1:8080/x",
      "http://0x7F.0.0.1:8080/x, http://127.0.0.1:8080/x",
      "http://127.1:8080/x, http://127.0.0.1:8080/x",
      "http://0177.0x0.1:8080/x, http://127.0.0.1:8080/x",
      "http://127.0.0.1.:8080/x?q=1#frag, http://127.0.0.1:8080/x?q=1",
      "HTTP://[::FFFF:127.0.0.1]:8080, http://127.0.0.1:8080/",
  })
  void legacyAndMappedFormsReadAsTheOsResolverReadsThem(String url, String normalised) {
    UrlPolicy policy = UrlPolicy.defaults().allowAddresses("127.0.0.1").allowPorts(8080);

    assertThat(policy.check(url).url()).isEqualTo(normalised);
  }

  @Test
  void aPublicAddressInLegacyFormIsCalledInItsDottedForm() {
    assertThat(UrlPolicy.defaults().check("http://1572394766/").url()).isEqualTo("http://93.184.215.14:80/");
    assertThat(UrlPolicy.defaults().check("https://0x5db8d70e/a").url()).isEqualTo("https://93.184.215.14:443/a");
  }

  @Test
  void everyLegacyEncodingOfAnAddressParsesBackToIt() {
    Random random = new Random(28);
    for (int i = 0; i < 2_000; i++) {
      int value = random.nextInt();
      byte[] bytes = {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
      long unsigned = Integer.toUnsignedLong(value);
      assertThat(Ipv4Forms.parse(Long.toString(unsigned))).isEqualTo(bytes);
      assertThat(Ipv4Forms.parse("0x" + Long.toHexString(unsigned))).isEqualTo(bytes);
      assertThat(Ipv4Forms.parse("0" + Long.toOctalString(unsigned))).isEqualTo(bytes);
      assertThat(Ipv4Forms.parse((bytes[0] & 0xff) + "." + (unsigned & 0xffffff))).isEqualTo(bytes);
      assertThat(Ipv4Forms.parse("0x" + Integer.toHexString(bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + ".0"
          + Long.toOctalString(unsigned & 0xffff))).isEqualTo(bytes);
    }
  }

  @Test
  void anInternationalisedHostIsCalledOnlyWhenAllowListedAndThenInItsAsciiForm() {
    assertThat(reason(UrlPolicy.defaults(), "https://b\u00fccher.example/")).isEqualTo("non_ascii_host");

    UrlPolicy policy = UrlPolicy.defaults().allowHosts("b\u00fccher.example");
    assertThat(policy.check("https://B\u00dcCHER.example/").host()).isEqualTo("xn--bcher-kva.example");
    assertThat(policy.check("https://xn--bcher-kva.example/").host()).isEqualTo("xn--bcher-kva.example");
  }

  @Test
  void anAllowListNarrowsTheHostsToItsNamesAndSuffixesOnLabelBoundaries() {
    UrlPolicy policy = UrlPolicy.defaults().allowHosts("api.stripe.com").allowHostSuffixes("example.com");

    assertThat(policy.check("https://api.stripe.com/v1").host()).isEqualTo("api.stripe.com");
    assertThat(policy.check("https://example.com/").host()).isEqualTo("example.com");
    assertThat(policy.check("https://eu.api.example.com/").host()).isEqualTo("eu.api.example.com");
    assertThat(reason(policy, "https://evilexample.com/")).isEqualTo("host_not_allowed");
    assertThat(reason(policy, "https://example.com.evil.net/")).isEqualTo("host_not_allowed");
    assertThat(reason(policy, "https://stripe.com/")).isEqualTo("host_not_allowed");
    assertThat(reason(policy, "https://93.184.215.14/")).isEqualTo("host_not_allowed");
  }

  @Test
  void withoutAnAllowListAnyPublicHostOnPorts80And443IsAllowed() {
    UrlPolicy policy = UrlPolicy.defaults();

    assertThat(policy.check("http://api.example.org/").port()).isEqualTo(80);
    assertThat(policy.check("https://api.example.org/").port()).isEqualTo(443);
    assertThat(policy.check("http://api.example.org:443/").port()).isEqualTo(443);
    assertThat(reason(policy, "https://api.example.org:8443/")).isEqualTo("port_not_allowed");
    assertThat(policy.allowPorts(8443).check("https://api.example.org:8443/").port()).isEqualTo(8443);
  }

  @Test
  void anAllowedAddressIsThatAddressOnly() {
    UrlPolicy policy = UrlPolicy.defaults().allowAddresses("127.0.0.1");

    assertThat(policy.check("http://127.0.0.1/").host()).isEqualTo("127.0.0.1");
    assertThat(reason(policy, "http://127.0.0.2/")).isEqualTo("non_public_address");
    assertThat(reason(policy, "http://[::1]/")).isEqualTo("non_public_address");
    assertThat(reason(policy, "http://10.0.0.1/")).isEqualTo("non_public_address");
    assertThat(reason(policy, "http://localhost/")).isEqualTo("local_name");
  }

  @Test
  void allowAddressesTakesLiteralsOnly() {
    assertThatThrownBy(() -> UrlPolicy.defaults().allowAddresses("localhost"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("IP literals");
    assertThatThrownBy(() -> UrlPolicy.defaults().allowAddresses("127.1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> UrlPolicy.defaults().allowHostSuffixes("com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two labels");
  }

  @Test
  void aBlockedHostIsNamedButNeverAnAnswer() throws Exception {
    StubResolver dns = new StubResolver().answer("inside.example.com", "10.1.2.3");
    Blocked blocked = catchThrowableOfType(Blocked.class, () -> UrlPolicy.defaults().vet("inside.example.com", dns));

    assertThat(blocked.range()).isEqualTo(Range.PRIVATE);
    FusionError error = Refusals.blocked(blocked);
    assertThat(error.getMessage()).contains("inside.example.com").doesNotContain("10.1.2.3");
    assertThat(error.details()).doesNotContainValue("10.1.2.3");
  }

  @Test
  void everyAnswerOfANameIsVettedAndReturnedPinned() throws Exception {
    StubResolver dns = new StubResolver().answer("api.example.com", "93.184.215.14", "2606:4700::1111");

    assertThat(UrlPolicy.defaults().vet("api.example.com", dns))
        .extracting(InetAddress::getHostAddress)
        .containsExactly("93.184.215.14", "2606:4700:0:0:0:0:0:1111");
    assertThat(UrlPolicy.defaults().vet("api.example.com", dns))
        .extracting(InetAddress::getHostName)
        .containsOnly("api.example.com");
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
      "127.0.0.1, LOOPBACK", "10.9.8.7, PRIVATE", "172.31.255.255, PRIVATE", "192.168.0.1, PRIVATE",
      "169.254.1.1, LINK_LOCAL", "169.254.169.254, METADATA", "169.254.170.2, METADATA",
      "100.100.100.200, METADATA", "168.63.129.16, METADATA", "192.0.0.192, METADATA",
      "100.64.0.1, SHARED_CGNAT", "100.127.255.255, SHARED_CGNAT", "0.1.2.3, UNSPECIFIED",
      "224.0.0.251, MULTICAST", "239.255.255.250, MULTICAST", "255.255.255.255, BROADCAST",
      "240.0.0.1, RESERVED", "192.0.0.8, RESERVED", "192.88.99.1, RESERVED",
      "192.0.2.1, DOCUMENTATION", "198.51.100.1, DOCUMENTATION", "203.0.113.1, DOCUMENTATION",
      "198.18.0.1, BENCHMARK", "198.19.255.255, BENCHMARK",
      "::1, LOOPBACK", "::, UNSPECIFIED", "fe80::1, LINK_LOCAL", "febf::1, LINK_LOCAL",
      "fc00::1, UNIQUE_LOCAL", "fdff::1, UNIQUE_LOCAL", "fd00:ec2::254, METADATA", "ff02::1, MULTICAST",
      "::ffff:10.0.0.1, PRIVATE", "::10.0.0.1, PRIVATE", "::8.8.8.8, RESERVED",
      "64:ff9b::a9fe:a9fe, METADATA", "64:ff9b:1::1, RESERVED", "2002:c0a8:0101::1, PRIVATE",
      "2001:db8::1, DOCUMENTATION", "3fff::1, DOCUMENTATION", "2001::1, RESERVED", "2001:2::1, RESERVED",
      "100::1, RESERVED", "fec0::1, RESERVED", "4000::1, RESERVED",
  })
  void nonPublicAddressesAreClassified(String literal, Range range) throws Exception {
    assertThat(AddressRanges.classify(InetAddress.getByName(literal))).isEqualTo(range);
  }

  @ParameterizedTest(name = "{0} is public")
  @CsvSource({"8.8.8.8", "1.1.1.1", "93.184.215.14", "100.63.255.255", "100.128.0.0", "172.32.0.1",
      "169.253.255.255", "198.20.0.1", "223.255.255.255", "2606:4700::1111", "2a00:1450:4001::1",
      "64:ff9b::808:808", "2002:808:808::1"})
  void publicAddressesPass(String literal) throws Exception {
    assertThat(AddressRanges.classify(InetAddress.getByName(literal))).isNull();
  }
}
