package dev.mcpfusion.benchmarks.context;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

/**
 * The synthetic router of benchmark 6: a CRM with 30 actions (list, get, create, update and
 * delete over six entities) that all take the same two router-wide fields, declared once with
 * {@code common}. Only its {@code tools/list} size is measured; the handlers echo their input.
 */
@Router(value = "crm", description = "CRM records: accounts, contacts, deals, tickets, tasks and notes",
    common = CrmTools.Scope.class)
public final class CrmTools {

  /** The fields every CRM action takes. */
  public record Scope(
      @Describe("Workspace that owns the records, e.g. ws_1234") @NotBlank String workspaceId,
      @Describe("Id of the user the agent acts for; written to the audit log") @NotBlank String actorId) {}

  @Query(description = "List accounts of the workspace, newest first")
  public String listAccounts(Scope scope,
      @Describe("Free-text search over account names") String query,
      @Describe("Page size, 1 to 100") @Min(1) @Max(100) Integer limit,
      @Describe("Cursor from the previous page") String cursor) {
    return "accounts of " + scope.workspaceId() + " matching " + query + " limit " + limit + " after " + cursor;
  }

  @Query(description = "Get one account by id")
  public String getAccount(Scope scope, @Describe("Account id") @NotBlank String accountId) {
    return "account " + accountId + " in " + scope.workspaceId();
  }

  @Mutation(description = "Create a account")
  public String createAccount(Scope scope, @Describe("Display name of the account") @NotBlank String name,
      @Describe("Free-form notes") String notes) {
    return "created account " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Rename a account or replace its notes", idempotent = true)
  public String updateAccount(Scope scope, @Describe("Account id") @NotBlank String accountId,
      @Describe("Display name of the account") String name, @Describe("Free-form notes") String notes) {
    return "updated account " + accountId + " to " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Delete a account for good", idempotent = true)
  public String deleteAccount(Scope scope, @Describe("Account id") @NotBlank String accountId) {
    return "deleted account " + accountId + " by " + scope.actorId();
  }

  @Query(description = "List contacts of the workspace, newest first")
  public String listContacts(Scope scope,
      @Describe("Free-text search over contact names") String query,
      @Describe("Page size, 1 to 100") @Min(1) @Max(100) Integer limit,
      @Describe("Cursor from the previous page") String cursor) {
    return "contacts of " + scope.workspaceId() + " matching " + query + " limit " + limit + " after " + cursor;
  }

  @Query(description = "Get one contact by id")
  public String getContact(Scope scope, @Describe("Contact id") @NotBlank String contactId) {
    return "contact " + contactId + " in " + scope.workspaceId();
  }

  @Mutation(description = "Create a contact")
  public String createContact(Scope scope, @Describe("Display name of the contact") @NotBlank String name,
      @Describe("Free-form notes") String notes) {
    return "created contact " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Rename a contact or replace its notes", idempotent = true)
  public String updateContact(Scope scope, @Describe("Contact id") @NotBlank String contactId,
      @Describe("Display name of the contact") String name, @Describe("Free-form notes") String notes) {
    return "updated contact " + contactId + " to " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Delete a contact for good", idempotent = true)
  public String deleteContact(Scope scope, @Describe("Contact id") @NotBlank String contactId) {
    return "deleted contact " + contactId + " by " + scope.actorId();
  }

  @Query(description = "List deals of the workspace, newest first")
  public String listDeals(Scope scope,
      @Describe("Free-text search over deal names") String query,
      @Describe("Page size, 1 to 100") @Min(1) @Max(100) Integer limit,
      @Describe("Cursor from the previous page") String cursor) {
    return "deals of " + scope.workspaceId() + " matching " + query + " limit " + limit + " after " + cursor;
  }

  @Query(description = "Get one deal by id")
  public String getDeal(Scope scope, @Describe("Deal id") @NotBlank String dealId) {
    return "deal " + dealId + " in " + scope.workspaceId();
  }

  @Mutation(description = "Create a deal")
  public String createDeal(Scope scope, @Describe("Display name of the deal") @NotBlank String name,
      @Describe("Free-form notes") String notes) {
    return "created deal " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Rename a deal or replace its notes", idempotent = true)
  public String updateDeal(Scope scope, @Describe("Deal id") @NotBlank String dealId,
      @Describe("Display name of the deal") String name, @Describe("Free-form notes") String notes) {
    return "updated deal " + dealId + " to " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Delete a deal for good", idempotent = true)
  public String deleteDeal(Scope scope, @Describe("Deal id") @NotBlank String dealId) {
    return "deleted deal " + dealId + " by " + scope.actorId();
  }

  @Query(description = "List tickets of the workspace, newest first")
  public String listTickets(Scope scope,
      @Describe("Free-text search over ticket names") String query,
      @Describe("Page size, 1 to 100") @Min(1) @Max(100) Integer limit,
      @Describe("Cursor from the previous page") String cursor) {
    return "tickets of " + scope.workspaceId() + " matching " + query + " limit " + limit + " after " + cursor;
  }

  @Query(description = "Get one ticket by id")
  public String getTicket(Scope scope, @Describe("Ticket id") @NotBlank String ticketId) {
    return "ticket " + ticketId + " in " + scope.workspaceId();
  }

  @Mutation(description = "Create a ticket")
  public String createTicket(Scope scope, @Describe("Display name of the ticket") @NotBlank String name,
      @Describe("Free-form notes") String notes) {
    return "created ticket " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Rename a ticket or replace its notes", idempotent = true)
  public String updateTicket(Scope scope, @Describe("Ticket id") @NotBlank String ticketId,
      @Describe("Display name of the ticket") String name, @Describe("Free-form notes") String notes) {
    return "updated ticket " + ticketId + " to " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Delete a ticket for good", idempotent = true)
  public String deleteTicket(Scope scope, @Describe("Ticket id") @NotBlank String ticketId) {
    return "deleted ticket " + ticketId + " by " + scope.actorId();
  }

  @Query(description = "List tasks of the workspace, newest first")
  public String listTasks(Scope scope,
      @Describe("Free-text search over task names") String query,
      @Describe("Page size, 1 to 100") @Min(1) @Max(100) Integer limit,
      @Describe("Cursor from the previous page") String cursor) {
    return "tasks of " + scope.workspaceId() + " matching " + query + " limit " + limit + " after " + cursor;
  }

  @Query(description = "Get one task by id")
  public String getTask(Scope scope, @Describe("Task id") @NotBlank String taskId) {
    return "task " + taskId + " in " + scope.workspaceId();
  }

  @Mutation(description = "Create a task")
  public String createTask(Scope scope, @Describe("Display name of the task") @NotBlank String name,
      @Describe("Free-form notes") String notes) {
    return "created task " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Rename a task or replace its notes", idempotent = true)
  public String updateTask(Scope scope, @Describe("Task id") @NotBlank String taskId,
      @Describe("Display name of the task") String name, @Describe("Free-form notes") String notes) {
    return "updated task " + taskId + " to " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Delete a task for good", idempotent = true)
  public String deleteTask(Scope scope, @Describe("Task id") @NotBlank String taskId) {
    return "deleted task " + taskId + " by " + scope.actorId();
  }

  @Query(description = "List notes of the workspace, newest first")
  public String listNotes(Scope scope,
      @Describe("Free-text search over note names") String query,
      @Describe("Page size, 1 to 100") @Min(1) @Max(100) Integer limit,
      @Describe("Cursor from the previous page") String cursor) {
    return "notes of " + scope.workspaceId() + " matching " + query + " limit " + limit + " after " + cursor;
  }

  @Query(description = "Get one note by id")
  public String getNote(Scope scope, @Describe("Note id") @NotBlank String noteId) {
    return "note " + noteId + " in " + scope.workspaceId();
  }

  @Mutation(description = "Create a note")
  public String createNote(Scope scope, @Describe("Display name of the note") @NotBlank String name,
      @Describe("Free-form notes") String notes) {
    return "created note " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Rename a note or replace its notes", idempotent = true)
  public String updateNote(Scope scope, @Describe("Note id") @NotBlank String noteId,
      @Describe("Display name of the note") String name, @Describe("Free-form notes") String notes) {
    return "updated note " + noteId + " to " + name + " (" + notes + ") by " + scope.actorId();
  }

  @Mutation(description = "Delete a note for good", idempotent = true)
  public String deleteNote(Scope scope, @Describe("Note id") @NotBlank String noteId) {
    return "deleted note " + noteId + " by " + scope.actorId();
  }
}
