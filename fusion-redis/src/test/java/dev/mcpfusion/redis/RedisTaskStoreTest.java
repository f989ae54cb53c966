package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.task.TaskRecord;
import dev.mcpfusion.core.task.TaskStatus;
import dev.mcpfusion.core.task.TaskStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The task store on Redis: created on one instance, read, cancelled and answered on another. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisTaskStoreTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  private FusionRedis instanceA;
  private FusionRedis instanceB;

  @BeforeEach
  void connect() throws Exception {
    REDIS.flushAll();
    instanceA = FusionRedis.connect(REDIS.url());
    instanceB = FusionRedis.connect(REDIS.url());
  }

  @AfterEach
  void close() {
    instanceA.close();
    instanceB.close();
  }

  private static TaskRecord working(String id, long now) {
    return new TaskRecord(id, "alice", "billing_export", TaskStatus.WORKING, "Started", now, now, 0,
        null, null, null);
  }

  @Test
  void aTaskCreatedOnOneInstanceIsReadCancelledAndAnsweredOnAnother() {
    long now = System.currentTimeMillis();
    TaskStore a = instanceA.taskStore();
    TaskStore b = instanceB.taskStore();
    assertThat(a.create(working("t1", now), 10, now)).isTrue();
    assertThat(a.create(working("t2", now), 10, now)).isTrue();

    assertThat(b.get("t1")).isEqualTo(working("t1", now));

    TaskRecord cancelled = b.update("t1", task -> task.finished(TaskStatus.CANCELLED, "Cancelled by the client",
        null, null, now + 1, now + 60_000));
    assertThat(a.get("t1")).isEqualTo(cancelled);
    assertThat(a.get("t1").status()).isEqualTo(TaskStatus.CANCELLED);

    TaskRecord done = a.update("t2", task -> task.finished(TaskStatus.COMPLETED, null,
        "{\"content\":[{\"type\":\"text\",\"text\":\"42\"}]}", null, now + 2, now + 60_000));
    assertThat(b.get("t2").resultJson()).isEqualTo("{\"content\":[{\"type\":\"text\",\"text\":\"42\"}]}");
    assertThat(b.get("t2")).isEqualTo(done);

    assertThat(b.get("nope")).isNull();
    assertThat(b.update("nope", task -> task)).isNull();
  }

  @Test
  void theBoundOnTasksHoldsAcrossInstancesAndExpiredTasksMakeRoom() {
    long now = System.currentTimeMillis();
    TaskStore a = instanceA.taskStore();
    TaskStore b = instanceB.taskStore();
    assertThat(a.create(working("t1", now), 2, now)).isTrue();
    assertThat(b.create(working("t2", now), 2, now)).isTrue();
    assertThat(a.create(working("t3", now), 2, now)).isFalse();
    assertThat(b.create(working("t1", now), 5, now)).as("an id already taken").isFalse();

    b.update("t1", task -> task.finished(TaskStatus.COMPLETED, null, "{}", null, now, now + 1_000));
    assertThat(a.create(working("t3", now + 500), 2, now + 500)).as("t1 not yet expired").isFalse();
    assertThat(a.create(working("t3", now + 1_000), 2, now + 1_000)).isTrue();
    assertThat(b.get("t1")).isNull();
  }

  @Test
  void purgeForgetsExpiredTasksOnly() {
    long now = System.currentTimeMillis();
    TaskStore a = instanceA.taskStore();
    a.create(working("t1", now), 10, now);
    a.create(working("t2", now), 10, now);
    a.update("t1", task -> task.finished(TaskStatus.FAILED, null, null, "{\"code\":-32603}", now, now + 100));

    assertThat(instanceB.taskStore().purgeExpired(now + 99)).isZero();
    assertThat(instanceB.taskStore().purgeExpired(now + 100)).isEqualTo(1);
    assertThat(a.get("t1")).isNull();
    assertThat(a.get("t2")).isNotNull();
  }

  @Test
  void aFinishedTaskExpiresInRedisWithoutAnyInstancePurging() throws Exception {
    long now = System.currentTimeMillis();
    TaskStore a = instanceA.taskStore();
    a.create(working("t1", now), 10, now);
    a.update("t1", task -> task.finished(TaskStatus.COMPLETED, null, "{}", null, now, now + 300));
    long deadline = System.currentTimeMillis() + 5_000;
    while (instanceB.taskStore().get("t1") != null && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertThat(instanceB.taskStore().get("t1")).isNull();
  }

  @Test
  void concurrentUpdatesFromTwoInstancesLoseNoChange() throws Exception {
    long now = System.currentTimeMillis();
    instanceA.taskStore().create(working("t1", now), 10, now);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        TaskStore store = (i % 2 == 0 ? instanceA : instanceB).taskStore();
        done.add(pool.submit(() -> store.update("t1",
            task -> task.withStatus(task.status(), task.statusMessage() + "+", task.lastUpdatedAtMs() + 1))));
      }
      for (Future<?> future : done) {
        future.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    TaskRecord task = instanceB.taskStore().get("t1");
    assertThat(task.lastUpdatedAtMs()).isEqualTo(now + 200);
    assertThat(task.statusMessage()).isEqualTo("Started" + "+".repeat(200));
  }

  @Test
  void aRunningTaskWhoseInstanceDiedIsMarkedFailedByAnotherOnceItsLeaseLapses() throws Exception {
    RedisSettings leased = RedisSettings.DEFAULT.withTaskLease(java.time.Duration.ofMillis(300));
    try (FusionRedis a = FusionRedis.connect(REDIS.url(), leased);
        FusionRedis b = FusionRedis.connect(REDIS.url(), leased)) {
      long now = System.currentTimeMillis();
      TaskStore onA = a.taskStore();
      TaskStore onB = b.taskStore();
      assertThat(onA.create(working("t1", now), 10, now)).isTrue();

      Thread.sleep(1_000); // over three leases: A renews its lease while it lives
      assertThat(onB.get("t1").status()).isEqualTo(TaskStatus.WORKING);

      a.stopRenewingLeases(); // A is killed: nothing gives its lease up, it lapses
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      TaskRecord seen = onB.get("t1");
      while (seen.status() == TaskStatus.WORKING && System.nanoTime() < deadline) {
        Thread.sleep(20);
        seen = onB.get("t1");
      }
      assertThat(seen.status()).isEqualTo(TaskStatus.FAILED);
      assertThat(seen.statusMessage()).isEqualTo("The instance running this task stopped (its "
          + "lease of 300 ms lapsed), so the task cannot finish; start the call again.");
      assertThat(seen.errorJson()).isEqualTo("{\"code\":-32603,\"message\":\"Internal error: the "
          + "instance running this task stopped (its lease of 300 ms lapsed), so the task cannot "
          + "finish; start the call again.\"}");
      assertThat(seen.expiresAtMs()).isGreaterThan(System.currentTimeMillis());

      // A was only cut off and finishes after all: a finished task stays as it is.
      onA.update("t1", t -> t.status().terminal() ? t : t.finished(TaskStatus.COMPLETED, "Done",
          "{}", null, System.currentTimeMillis(), System.currentTimeMillis() + 60_000));
      assertThat(onB.get("t1").status()).isEqualTo(TaskStatus.FAILED);
    }
  }

  @Test
  void anInstanceThatClosesGivesItsLeaseUpAndItsRunningTasksFailAtOnce() throws Exception {
    FusionRedis c = FusionRedis.connect(REDIS.url());
    long now = System.currentTimeMillis();
    assertThat(c.taskStore().create(working("t3", now), 10, now)).isTrue();
    assertThat(instanceB.taskStore().get("t3").status()).isEqualTo(TaskStatus.WORKING);

    c.close();

    assertThat(instanceB.taskStore().get("t3").status()).isEqualTo(TaskStatus.FAILED);
  }
}
