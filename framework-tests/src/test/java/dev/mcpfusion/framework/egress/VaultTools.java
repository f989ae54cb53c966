package dev.mcpfusion.framework.egress;

import dev.mcpfusion.annotation.Action;
import dev.mcpfusion.annotation.Complete;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Invalidates;
import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.Content;
import dev.mcpfusion.core.Elicitation;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.PromptResult;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.Sampling;
import jakarta.validation.constraints.NotBlank;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The egress fixture: one handler per outbound channel, each writing the secrets of an account the
 * test opened into what it sends — tool results and their attachments, an error envelope, prompt
 * messages, resource contents, completion values, progress, logs, sampling and elicitation
 * requests, and (through a template whose URI carries a key) {@code notifications/resources/updated}.
 *
 * <p>Secrets come from the server's own store, as a connector's data would, not from the request
 * that reads them: only {@code open_account} receives them from the test.
 */
@Router(value = "vault", description = "Accounts and their secrets (the egress property's fixture)")
@Limits(maxEgressBytes = 16_384)
public final class VaultTools {
  /** More than any cap of this router: what the export attaches twice. */
  static final int BULK_CHARS = 100_000;

  private final Map<String, Account> accounts = new ConcurrentHashMap<>();

  /** The one form {@code confirm_transfer} asks the user to fill. */
  public record Transfer(@Describe("Whether to go ahead with the transfer") boolean confirm) {}

  @Action(description = "Open an account holding the given secrets", presenter = AccountView.class)
  public Account openAccount(@NotBlank @Describe("New account id") String id,
      @Describe("Holder") String holder, @Describe("Card number") String card,
      @Describe("IBAN") String iban, @Describe("Stripe key") String stripeKey,
      @Describe("GitHub token") String githubToken, @Describe("Slack token") String slackToken,
      @Describe("AWS key id") String awsKeyId, @Describe("Note") String note,
      @Describe("Hidden sentinel") String sentinel) {
    Account account = new Account(id, holder, card, iban, stripeKey, githubToken, slackToken,
        awsKeyId, note, sentinel);
    accounts.put(id, account);
    return account;
  }

  @Query(description = "One account, with evidence attached", presenter = AccountView.class)
  public Account getAccount(@NotBlank @Describe("Account id") String id, RequestContext request) {
    Account a = find(id);
    request.attach(
        Content.text("Card on file: " + a.card() + "; key " + a.stripeKey() + ";"),
        Content.resource("vault://evidence/" + a.id(), "text/plain",
            "IBAN " + a.iban() + "; token " + a.githubToken() + ";"),
        Content.resourceLink("vault://keys/" + a.slackToken(), "key " + a.awsKeyId(),
            "Slack key " + a.slackToken() + " of card " + a.card() + ";", "text/plain"));
    return a;
  }

  @Action(description = "Lock an account (always refused, with the reason)", presenter = AccountView.class)
  public Account lockAccount(@NotBlank @Describe("Account id") String id) {
    Account a = find(id);
    throw FusionError.of("ACCOUNT_LOCKED", "Card " + a.card() + " of " + a.iban() + " is locked;")
        .recovery("Unlock it with the key " + a.stripeKey() + ";")
        .detail("token", a.githubToken())
        .detail("account", a);
  }

  @Query(description = "A statement with the whole ledger attached")
  @Limits(maxEgressBytes = 4096)
  public String exportStatement(@NotBlank @Describe("Account id") String id,
      RequestContext request) {
    Account a = find(id);
    String ledger = ledger(BULK_CHARS);
    request.attach(
        Content.text(ledger + " card " + a.card() + "; iban " + a.iban() + ";"),
        Content.resource("vault://ledgers/" + a.id(), "text/plain",
            ledger + " key " + a.stripeKey() + "; token " + a.githubToken() + ";"));
    return "Statement of " + a.id();
  }

  @Query(description = "Audit an account, reporting progress and logging what it finds")
  public String audit(@NotBlank @Describe("Account id") String id, RequestContext request) {
    Account a = find(id);
    request.progress(1, 2, "Checked card " + a.card() + "; iban " + a.iban() + ";");
    request.log(LogLevel.WARNING,
        "Key " + a.stripeKey() + " and token " + a.githubToken() + " were used;");
    request.progress(2, 2, "Checked keys " + a.slackToken() + "; " + a.awsKeyId() + ";");
    return "Audited " + a.id();
  }

  @Query(description = "Summarise an account with the client's model")
  public String summarise(@NotBlank @Describe("Account id") String id, RequestContext request) {
    Account a = find(id);
    Sampling.Result answer = request.sample(
        Sampling.prompt("Summarise the account with card " + a.card() + " and key "
                + a.stripeKey() + ";")
            .system("The IBAN is " + a.iban() + "; the token " + a.githubToken() + ";")
            .maxTokens(50));
    return "Summary: " + answer.text();
  }

  @Action(description = "Ask the user to confirm a transfer")
  public String confirmTransfer(@NotBlank @Describe("Account id") String id,
      RequestContext request) {
    Account a = find(id);
    Elicitation<Transfer> answer = request.elicit(Transfer.class, "Transfer from " + a.iban()
        + " with card " + a.card() + " using key " + a.awsKeyId() + ";");
    return answer.accepted() ? "Confirmed" : "Not confirmed";
  }

  @Mutation(description = "Rotate an account's keys")
  @Invalidates("vault.*")
  public String rotateKeys(@NotBlank @Describe("Account id") String id) {
    return "Rotated the keys of " + find(id).id();
  }

  @Prompt(description = "Brief an agent on an account, in plain text")
  public PromptResult briefAccount(@NotBlank @Describe("Account id") String account) {
    Account a = find(account);
    return PromptResult.user("Brief on card " + a.card() + " and IBAN " + a.iban() + ";")
        .text(PromptResult.Role.ASSISTANT,
            "Keys: " + a.stripeKey() + "; " + a.githubToken() + ";")
        .resource(PromptResult.Role.USER, "vault://evidence/" + a.id(), "text/plain",
            "Slack " + a.slackToken() + "; AWS " + a.awsKeyId() + ";");
  }

  @Prompt(description = "Review an account, presented by its view", presenter = AccountView.class)
  public PromptResult reviewAccount(@NotBlank @Describe("Account id") String account) {
    return PromptResult.user("Review the account below.").data(find(account));
  }

  @Resource(uri = "vault://statements/{id}", description = "An account's statement, as text",
      mimeType = "text/plain")
  public String statement(String id) {
    Account a = find(id);
    return "Statement. Card " + a.card() + "; IBAN " + a.iban() + "; keys " + a.stripeKey()
        + "; " + a.githubToken() + "; " + a.slackToken() + "; " + a.awsKeyId() + ";";
  }

  @Resource(uri = "vault://accounts/{id}", description = "One account, as an agent may see it",
      presenter = AccountView.class)
  public Account account(String id) {
    return find(id);
  }

  @Resource(uri = "vault://keys/{key}", description = "Whether a key is active",
      mimeType = "text/plain")
  public String key(String key) {
    return "This key is active.";
  }

  @Complete(prompt = "brief_account", argument = "account")
  public List<String> accountIds(String prefix) {
    return accounts.values().stream()
        .filter(a -> a.id().startsWith(prefix))
        .flatMap(a -> Stream.of(a.id() + " card " + a.card() + ";", a.iban(), a.stripeKey(),
            a.githubToken(), a.slackToken(), a.awsKeyId()))
        .toList();
  }

  private Account find(String id) {
    Account account = accounts.get(id);
    if (account == null) {
      throw FusionError.notFound("No account " + id + ".")
          .recovery("Open it with vault.open_account first.")
          .actions("vault.open_account");
    }
    return account;
  }

  /** Ledger lines of about {@code chars} characters: text no detector finds anything in. */
  private static String ledger(int chars) {
    String line = "ledger line: opening balance carried forward, nothing to report. ";
    StringBuilder out = new StringBuilder(chars + line.length());
    while (out.length() < chars) {
      out.append(line);
    }
    return out.toString();
  }
}
