package dev.mcpfusion.cards;

import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.PromptDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.http.ProtectedResource;
import dev.mcpfusion.http.PublicDocument;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.ContractLoader;
import dev.mcpfusion.lock.LockProfile;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The cards that describe a connector outside the protocol, for registries, crawlers and agent
 * platforms: an MCP server card and an A2A agent card, both built from the connector's lockfile
 * contract (the generated descriptors of its classes under a serving profile), so they name
 * exactly the tools the lockfile records.
 *
 * <pre>{@code
 * Cards cards = Cards.builder(LockProfile.defaults(), BillingTools.class)
 *     .name("com.acme/billing").version("1.0.0")
 *     .description("Invoices: list, inspect and void them")
 *     .endpoint("https://mcp.example.com/mcp")
 *     .build();
 * FusionHttp.serve(server, HttpOptions.port(8080).publish(cards.documents()));
 * }</pre>
 *
 * <p>A card is public: it is read before a client connects or holds a token. So it lists only
 * what a caller without any scope may see — tools, prompts and resources that need no
 * {@code @Scopes} — by name and description, never an input or view field.
 */
public final class Cards {
  /** The server card's media type (MCP server card discovery draft). */
  public static final String SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
  /** The server card's path under the MCP endpoint's URL, reserved by the discovery draft. */
  public static final String SERVER_CARD_SUFFIX = "/server-card";
  /** The well-known path of the server card in the SEP-2127 text. */
  public static final String SERVER_CARD_WELL_KNOWN = "/.well-known/mcp/server-card";
  /** The well-known path of the A2A agent card. */
  public static final String AGENT_CARD_WELL_KNOWN = "/.well-known/agent-card.json";

  private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+");
  private static final int MAX_DESCRIPTION = 100;

  private final String serverCard;
  private final String agentCard;
  private final String endpointPath;

  private Cards(String serverCard, String agentCard, String endpointPath) {
    this.serverCard = serverCard;
    this.agentCard = agentCard;
    this.endpointPath = endpointPath;
  }

  /**
   * Starts the cards of the connector made of {@code types} (its {@code @Router} classes and the
   * classes with prompts or resources) served under {@code profile}, the profile its lockfile is
   * written with. Reads the generated descriptors only; no class is instantiated.
   */
  public static Builder builder(LockProfile profile, Class<?>... types) {
    Objects.requireNonNull(profile, "profile");
    List<RouterDescriptor> routers = new ArrayList<>();
    List<FeaturesDescriptor> features = new ArrayList<>();
    Set<String> guarded = new HashSet<>();
    for (Class<?> type : types) {
      if (type.isAnnotationPresent(Router.class)) {
        routers.add(ContractLoader.describeRouter(type));
      }
      ContractLoader.featuresOf(type).ifPresent(f -> {
        features.add(f);
        for (PromptDescriptor p : f.prompts()) {
          if (!p.scopes().isEmpty()) {
            guarded.add(ContractCards.PROMPT + p.name());
          }
        }
        for (ResourceDescriptor r : f.resources()) {
          if (!r.scopes().isEmpty()) {
            guarded.add(ContractCards.RESOURCE + r.uri());
          }
        }
      });
    }
    return new Builder(new ContractCards(Contract.of(routers, features, profile), guarded));
  }

  /** The MCP server card, JSON. */
  public String serverCardJson() {
    return serverCard;
  }

  /** The A2A agent card, JSON. */
  public String agentCardJson() {
    return agentCard;
  }

  /** The server card at the endpoint's URL + {@value #SERVER_CARD_SUFFIX} (e.g. {@code /mcp/server-card}). */
  public PublicDocument serverCard() {
    return new PublicDocument(endpointPath + SERVER_CARD_SUFFIX, SERVER_CARD_MEDIA_TYPE, serverCard);
  }

  /** The same server card at {@value #SERVER_CARD_WELL_KNOWN}. */
  public PublicDocument serverCardWellKnown() {
    return new PublicDocument(SERVER_CARD_WELL_KNOWN, SERVER_CARD_MEDIA_TYPE, serverCard);
  }

  /** The A2A agent card at {@value #AGENT_CARD_WELL_KNOWN}. */
  public PublicDocument agentCard() {
    return new PublicDocument(AGENT_CARD_WELL_KNOWN, "application/json", agentCard);
  }

  /** All three documents, for {@code HttpOptions.publish(...)}. */
  public PublicDocument[] documents() {
    return new PublicDocument[] {serverCard(), serverCardWellKnown(), agentCard()};
  }

  /** Collects what the contract does not say: the server's identity and where it is reached. */
  public static final class Builder {
    private final ContractCards contract;
    private String name;
    private String version;
    private String description;
    private String title;
    private URI endpoint;
    private ProtectedResource protectedResource;

    private Builder(ContractCards contract) {
      this.contract = contract;
    }

    /** The server's name in reverse-DNS form, one slash: {@code com.acme/billing} (required). */
    public Builder name(String name) {
      if (name == null || name.length() < 3 || name.length() > 200 || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("A card's name is a namespace and a name in reverse-DNS"
            + " form with exactly one slash, such as com.acme/billing, but was '" + name + "'.");
      }
      this.name = name;
      return this;
    }

    /** The server's version, as {@code FusionServer.builder(name, version)} says it (required). */
    public Builder version(String version) {
      if (version == null || version.isBlank() || version.length() > 255) {
        throw new IllegalArgumentException("A card's version is a non-empty string of at most 255"
            + " characters, such as 1.0.0.");
      }
      this.version = version;
      return this;
    }

    /** What the server does for a person choosing it, 1 to 100 characters (required). */
    public Builder description(String description) {
      if (description == null || description.isBlank() || description.length() > MAX_DESCRIPTION) {
        throw new IllegalArgumentException("A card's description has 1 to " + MAX_DESCRIPTION
            + " characters (the server card schema's limit), but had "
            + (description == null ? 0 : description.length()) + ".");
      }
      this.description = description;
      return this;
    }

    /** A display name (optional, at most 100 characters); the agent card's name when set. */
    public Builder title(String title) {
      if (title != null && (title.isBlank() || title.length() > MAX_DESCRIPTION)) {
        throw new IllegalArgumentException("A card's title has 1 to " + MAX_DESCRIPTION
            + " characters.");
      }
      this.title = title;
      return this;
    }

    /**
     * The MCP endpoint's public URL, as clients reach it: {@code https://mcp.example.com/mcp}
     * (required unless {@link #protectedResource} gives it).
     */
    public Builder endpoint(String url) {
      URI uri = URI.create(Objects.requireNonNull(url, "url"));
      if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null
          || uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw new IllegalArgumentException("The endpoint is the absolute http(s) URL of the MCP"
            + " endpoint without query or fragment, such as https://mcp.example.com/mcp, but was '"
            + url + "'.");
      }
      this.endpoint = uri;
      return this;
    }

    /**
     * The endpoint's OAuth protected-resource metadata (RFC 9728), when it needs a token: the
     * cards then say that a bearer token is required and point at the metadata document, which
     * names the authorization servers. Its resource is the endpoint unless {@link #endpoint} says
     * otherwise.
     */
    public Builder protectedResource(ProtectedResource metadata) {
      this.protectedResource = metadata;
      return this;
    }

    /** The cards; fails naming the missing setting. */
    public Cards build() {
      URI url = endpoint != null ? endpoint
          : protectedResource != null ? protectedResource.resource() : null;
      List<String> missing = new ArrayList<>();
      if (name == null) {
        missing.add("name(...)");
      }
      if (version == null) {
        missing.add("version(...)");
      }
      if (description == null) {
        missing.add("description(...)");
      }
      if (url == null) {
        missing.add("endpoint(...)");
      }
      if (!missing.isEmpty()) {
        throw new IllegalStateException("The cards need " + String.join(", ", missing)
            + " before build()");
      }
      String path = url.getRawPath() == null || url.getRawPath().equals("/") ? ""
          : url.getRawPath().endsWith("/") ? url.getRawPath().substring(0, url.getRawPath().length() - 1)
          : url.getRawPath();
      Map<String, Object> server = ServerCardJson.of(contract, name, version, description, title,
          url.toString(), protectedResource);
      Map<String, Object> agent = AgentCardJson.of(contract, title != null ? title : name, version,
          description, url.toString(), protectedResource);
      return new Cards(Json.write(server), Json.write(agent), path);
    }
  }
}
