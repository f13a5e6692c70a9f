// Replays one scenario file on a real Apache Kafka cluster started from Apache's own jars, and
// writes what Kafka answered as JSON (the runner's result document, plus the times each ISR change
// was seen and each leader's "Shrinking ISR" beat from its log). scripts/kafka-check.sh resolves the jars, runs this once per scenario and run, and
// compares with the model (scripts/kafka-compare.mjs).
//
//   java -cp 'JARS/*' tools/kafka-check/KafkaCheck.java SCENARIO.json OUT.json
//
// The cluster: one KRaft controller and the scenario's brokers, each its own JVM with a small heap,
// every port on 127.0.0.1 chosen free at start, logs under a temp folder that is removed at the end.
// Broker ids are the scenario's broker numbers; the controller is node `brokers`.
//
// A follower's pause is the model's: its fetches stop while it keeps heart-beating. Every broker has
// one replication listener per follower (R0, R1, ...); broker f replicates over Rf
// (inter.broker.listener.name), and each leader advertises its Rf at a proxy of this program's.
// Pausing f holds every byte through f's proxies, both ways; its heartbeats go to the controller on
// the controller listener and go on. A crash is SIGKILL; a restart relaunches on the same log folder.
// An election moves leadership where the contract's does: the partition's replicas are reordered
// with the broker first, then a preferred election runs (see `electLeader`).
//
// Each produce is one raw ProduceRequest (version 11, topic names) on a connection of its own, so a
// waiting request does not hold up the next (a broker handles one request per connection at a time):
// no client, no retries, no batching; its connection is opened before t = 0 where its broker is
// known. Its answer time is measured from the scenario's t = 0, a moment after every replica is in
// sync and the followers' fetchers have gone round their idle cycle.
//
// Every process started here is stopped by its PID when the run ends, fails, or is interrupted.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.FileRecords;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;

public class KafkaCheck {
  static final ObjectMapper JSON = new ObjectMapper();
  static final short PRODUCE_VERSION = 11;
  /** How long a broker may take to register with the controller (2 cores, cold JVMs). */
  static final long START_TIMEOUT_MS = 90_000;

  public static void main(String[] args) throws Exception {
    Long isrPhase = null;
    if (args.length == 3 && args[2].startsWith("--isr-phase=")) {
      isrPhase = Long.parseLong(args[2].substring("--isr-phase=".length()));
    } else if (args.length != 2) {
      System.err.println("usage: KafkaCheck SCENARIO.json OUT.json [--isr-phase=MS]");
      System.exit(2);
    }
    JsonNode scenario = JSON.readTree(Path.of(args[0]).toFile());
    Cluster cluster = new Cluster(scenario);
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop));
    try {
      cluster.start();
      ObjectNode result = new Replay(scenario, cluster, isrPhase).run();
      JSON.writerWithDefaultPrettyPrinter().writeValue(Path.of(args[1]).toFile(), result);
    } finally {
      cluster.stop();
    }
  }

  // ---- The cluster --------------------------------------------------------------------------

  /** A loopback port free now and not in `taken` (which it joins). */
  static int freePort(java.util.Set<Integer> taken) throws IOException {
    while (true) {
      try (ServerSocket s = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
        if (taken.add(s.getLocalPort())) return s.getLocalPort();
      }
    }
  }

  static long config(JsonNode scenario, String name, long dflt) {
    JsonNode v = scenario.path("config").path(name);
    return v.isMissingNode() ? dflt : v.asLong();
  }

  static final class Cluster {
    final JsonNode scenario;
    final int brokers;
    final int controllerId;
    final Path dir;
    final String jars = System.getProperty("java.class.path");
    final int controllerPort;
    final int[] clientPort;
    /** replicationPort[b][f]: broker b's real listener Rf. */
    final int[][] replicationPort;
    final Proxy[][] proxy;
    final Map<Integer, Process> processes = new ConcurrentHashMap<>();
    final String clusterId = Uuid.randomUuid().toString();
    Admin admin;

    Cluster(JsonNode scenario) throws IOException {
      this.scenario = scenario;
      this.brokers = (int) config(scenario, "brokers", 3);
      this.controllerId = brokers;
      this.dir = Files.createTempDirectory("kafka-check-");
      // The proxies bind first and keep their ports; then the brokers' ports are chosen among the
      // free ones, each once.
      proxy = new Proxy[brokers][brokers];
      for (int b = 0; b < brokers; b++) {
        for (int f = 0; f < brokers; f++) proxy[b][f] = new Proxy();
      }
      java.util.Set<Integer> taken = new java.util.HashSet<>();
      controllerPort = freePort(taken);
      clientPort = new int[brokers];
      replicationPort = new int[brokers][brokers];
      for (int b = 0; b < brokers; b++) {
        clientPort[b] = freePort(taken);
        for (int f = 0; f < brokers; f++) {
          replicationPort[b][f] = freePort(taken);
          proxy[b][f].target = replicationPort[b][f];
        }
      }
    }

    String voters() {
      return controllerId + "@127.0.0.1:" + controllerPort;
    }

    Path write(String name, Properties p) throws IOException {
      Path file = dir.resolve(name);
      try (var out = Files.newBufferedWriter(file)) {
        p.store(out, null);
      }
      return file;
    }

    Path controllerConfig() throws IOException {
      Properties p = new Properties();
      p.setProperty("process.roles", "controller");
      p.setProperty("node.id", String.valueOf(controllerId));
      p.setProperty("controller.quorum.voters", voters());
      p.setProperty("listeners", "CONTROLLER://127.0.0.1:" + controllerPort);
      p.setProperty("controller.listener.names", "CONTROLLER");
      p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT");
      p.setProperty("log.dirs", dir.resolve("controller").toString());
      p.setProperty("broker.session.timeout.ms", String.valueOf(config(scenario, "broker_session_timeout_ms", 9000)));
      p.setProperty("broker.heartbeat.interval.ms", String.valueOf(config(scenario, "broker_heartbeat_interval_ms", 2000)));
      return write("controller.properties", p);
    }

    Path brokerConfig(int b) throws IOException {
      Properties p = new Properties();
      p.setProperty("process.roles", "broker");
      p.setProperty("node.id", String.valueOf(b));
      p.setProperty("controller.quorum.voters", voters());
      p.setProperty("controller.listener.names", "CONTROLLER");
      StringBuilder listeners = new StringBuilder("PLAINTEXT://127.0.0.1:" + clientPort[b]);
      StringBuilder advertised = new StringBuilder("PLAINTEXT://127.0.0.1:" + clientPort[b]);
      StringBuilder protocols = new StringBuilder("CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
      for (int f = 0; f < brokers; f++) {
        listeners.append(",R").append(f).append("://127.0.0.1:").append(replicationPort[b][f]);
        advertised.append(",R").append(f).append("://127.0.0.1:").append(proxy[b][f].port);
        protocols.append(",R").append(f).append(":PLAINTEXT");
      }
      p.setProperty("listeners", listeners.toString());
      p.setProperty("advertised.listeners", advertised.toString());
      p.setProperty("listener.security.protocol.map", protocols.toString());
      p.setProperty("inter.broker.listener.name", "R" + b);
      p.setProperty("log.dirs", dir.resolve("broker-" + b).toString());
      p.setProperty("auto.create.topics.enable", "false");
      p.setProperty("replica.lag.time.max.ms", String.valueOf(config(scenario, "replica_lag_time_max_ms", 30000)));
      p.setProperty("replica.fetch.wait.max.ms", String.valueOf(config(scenario, "replica_fetch_wait_max_ms", 500)));
      p.setProperty("broker.heartbeat.interval.ms", String.valueOf(config(scenario, "broker_heartbeat_interval_ms", 2000)));
      p.setProperty("producer.purgatory.purge.interval.requests", String.valueOf(config(scenario, "producer_purgatory_purge_interval_requests", 1000)));
      p.setProperty("num.replica.fetchers", "1");
      // S15's thousand requests connect within a second: Kafka's default backlog of 50 resets some.
      p.setProperty("socket.listen.backlog.size", "1024");
      // Internal topics are never used here; keep them from asking for more replicas than exist.
      p.setProperty("offsets.topic.replication.factor", "1");
      p.setProperty("transaction.state.log.replication.factor", "1");
      p.setProperty("group.initial.rebalance.delay.ms", "0");
      return write("broker-" + b + ".properties", p);
    }

    Path log4j(String name) throws IOException {
      Path file = dir.resolve(name + "-log4j.properties");
      Files.writeString(file, String.join("\n",
          "log4j.rootLogger=INFO, file",
          "log4j.appender.file=org.apache.log4j.FileAppender",
          "log4j.appender.file.File=" + dir.resolve(name + ".log"),
          "log4j.appender.file.layout=org.apache.log4j.PatternLayout",
          "log4j.appender.file.layout.ConversionPattern=%d{ISO8601} %p %m (%c)%n",
          // Every run of a scheduled task, with its time: where each broker's ISR-check beat falls.
          "log4j.logger.org.apache.kafka.server.util.KafkaScheduler=TRACE", ""));
      return file;
    }

    void format(Path config) throws Exception {
      Process p = new ProcessBuilder(java(), "-Xmx256m", "-cp", jars, "kafka.tools.StorageTool",
          "format", "-t", clusterId, "-c", config.toString(), "--ignore-formatted")
          .redirectErrorStream(true).redirectOutput(dir.resolve("format.out").toFile()).start();
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException("StorageTool format failed for " + config + ": " + Files.readString(dir.resolve("format.out")));
      }
    }

    static String java() {
      return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    void launch(int node, Path config, String name) throws IOException {
      Process p = new ProcessBuilder(java(), "-Xmx384m", "-XX:+UseSerialGC", "-Djava.awt.headless=true",
          "-Dlog4j.configuration=file:" + log4j(name), "-cp", jars, "kafka.Kafka", config.toString())
          .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".out").toFile()).start();
      processes.put(node, p);
    }

    void start() throws Exception {
      Path c = controllerConfig();
      List<Path> configs = new ArrayList<>();
      for (int b = 0; b < brokers; b++) configs.add(brokerConfig(b));
      format(c);
      for (Path p : configs) format(p);
      for (Proxy[] row : proxy) for (Proxy x : row) x.start();
      launch(controllerId, c, "controller");
      for (int b = 0; b < brokers; b++) launch(b, configs.get(b), "broker-" + b);
      Properties a = new Properties();
      a.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + clientPort[0]);
      a.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
      a.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
      admin = Admin.create(a);
      long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
      while (true) {
        try {
          if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == brokers) break;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          // not up yet
        }
        for (var e : processes.entrySet()) {
          if (!e.getValue().isAlive()) throw new IllegalStateException("node " + e.getKey() + " exited at start; see " + dir);
        }
        if (System.currentTimeMillis() > deadline) throw new IllegalStateException("the brokers did not all register within " + START_TIMEOUT_MS + " ms");
        Thread.sleep(200);
      }
    }

    boolean alive(int broker) {
      Process p = processes.get(broker);
      return p != null && p.isAlive();
    }

    void pause(int follower, boolean paused) {
      for (int b = 0; b < brokers; b++) proxy[b][follower].paused = paused;
    }

    void crash(int broker) throws InterruptedException {
      Process p = processes.get(broker);
      if (p != null) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
      for (int b = 0; b < brokers; b++) {
        proxy[broker][b].dropConnections();
        proxy[b][broker].dropConnections();
      }
    }

    void restart(int broker) throws IOException {
      pause(broker, false);
      launch(broker, dir.resolve("broker-" + broker + ".properties"), "broker-" + broker);
    }

    /** Every replica's log end offset, read from its log segments on disk (after the brokers stop). */
    long logEndOffset(int broker, String topic, int partition) throws IOException {
      Path folder = dir.resolve("broker-" + broker).resolve(topic + "-" + partition);
      if (!Files.isDirectory(folder)) return 0;
      long leo = 0;
      try (Stream<Path> files = Files.list(folder)) {
        for (Path seg : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".log"))::iterator) {
          try (FileRecords records = FileRecords.open(seg.toFile(), false)) {
            for (RecordBatch batch : records.batches()) leo = Math.max(leo, batch.lastOffset() + 1);
          }
        }
      }
      return leo;
    }

    synchronized void stop() {
      if (admin != null) {
        admin.close(java.time.Duration.ofSeconds(1));
        admin = null;
      }
      // Brokers first (SIGKILL: a broker's controlled shutdown waits for its controller), then the
      // controller; each waited for by its PID.
      List<Integer> order = new ArrayList<>(processes.keySet());
      order.sort(Comparator.comparing(n -> n == controllerId ? 1 : 0));
      for (int n : order) {
        Process p = processes.remove(n);
        p.destroyForcibly();
        try {
          p.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      for (Proxy[] row : proxy) for (Proxy x : row) x.close();
    }

    void deleteFiles() throws IOException {
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  // ---- The pausable proxy of one (leader, follower) replication listener ----------------------

  static final class Proxy {
    volatile int target;
    final ServerSocket server;
    final int port;
    volatile boolean paused;
    volatile boolean closed;
    final List<Socket> sockets = new CopyOnWriteArrayList<>();

    Proxy() throws IOException {
      this.server = new ServerSocket();
      server.bind(new InetSocketAddress("127.0.0.1", 0));
      this.port = server.getLocalPort();
    }

    void start() {
      Thread t = new Thread(() -> {
        while (!closed) {
          try {
            Socket in = server.accept();
            Socket out = new Socket("127.0.0.1", target);
            in.setTcpNoDelay(true);
            out.setTcpNoDelay(true);
            sockets.add(in);
            sockets.add(out);
            pump(in, out);
            pump(out, in);
          } catch (IOException e) {
            // closed, or the target is down (a crashed broker): the connection is refused
          }
        }
      }, "proxy-" + port);
      t.setDaemon(true);
      t.start();
    }

    /** Copies bytes one way; while paused, holds them (the reader waits, as a stalled network would). */
    void pump(Socket from, Socket to) {
      Thread t = new Thread(() -> {
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
          while (true) {
            while (paused && !closed) Thread.sleep(1);
            int n = in.read(buf);
            if (n < 0) break;
            while (paused && !closed) Thread.sleep(1);
            out.write(buf, 0, n);
            out.flush();
          }
        } catch (IOException | InterruptedException e) {
          // the other side closed
        } finally {
          close(from);
          close(to);
        }
      });
      t.setDaemon(true);
      t.start();
    }

    static void close(Socket s) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }

    void dropConnections() {
      for (Socket s : sockets) close(s);
      sockets.clear();
    }

    void close() {
      closed = true;
      dropConnections();
      try {
        server.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  // ---- The replay ---------------------------------------------------------------------------

  static final class Replay {
    final JsonNode scenario;
    final Cluster cluster;
    long t0;
    final Map<String, ObjectNode> responses = Collections.synchronizedMap(new HashMap<>());
    final ArrayNode isrChanges = JSON.createArrayNode();
    /** The leader of each partition ("topic-partition") as last seen, for a produce without a broker. */
    final Map<String, Integer> leaders = new ConcurrentHashMap<>();
    /** Elections that the contract says do nothing (no such partition, or the broker not a live ISR member). */
    final List<String> electionsIgnored = new CopyOnWriteArrayList<>();

    /** Where the leader's ISR check should fall from t = 0 (φ), or null: wherever it falls. */
    final Long isrPhase;
    /** The ISR check's period, replica.lag.time.max.ms / 2 as ReplicaManager computes it. */
    final long isrPeriod;

    Replay(JsonNode scenario, Cluster cluster, Long isrPhase) {
      this.scenario = scenario;
      this.cluster = cluster;
      this.isrPhase = isrPhase;
      this.isrPeriod = config(scenario, "replica_lag_time_max_ms", 30_000) / 2;
    }

    static final java.time.format.DateTimeFormatter STAMP = java.time.format.DateTimeFormatter
        .ofPattern("yyyy-MM-dd HH:mm:ss,SSS").withZone(java.time.ZoneId.systemDefault());

    /**
     * The wall-clock times at which broker `b` began its ISR check, from its own log
     * (ReplicaManager schedules the task "isr-expiration" at a fixed rate from the broker's start;
     * KafkaScheduler logs each run at TRACE).
     */
    List<Long> isrChecks(int b) throws IOException {
      List<Long> out = new ArrayList<>();
      Path log = cluster.dir.resolve("broker-" + b + ".log");
      if (!Files.exists(log)) return out;
      for (String text : Files.readAllLines(log)) {
        if (!text.contains("Beginning execution of scheduled task 'isr-expiration'")) continue;
        out.add(java.time.Instant.from(STAMP.parse(text.substring(0, 23))).toEpochMilli());
      }
      return out;
    }

    /**
     * t = 0 for the replay: now, or (with a target φ) the first moment, a little ahead, at which
     * the leader's next ISR check falls φ ms later. The leader is broker 0, which leads partition 0
     * of every topic by the contract's assignment.
     */
    long startAt() throws Exception {
      long now = System.currentTimeMillis();
      if (isrPhase == null || isrPeriod <= 0) return now;
      List<Long> beats = List.of();
      for (int i = 0; i < 100 && beats.isEmpty(); i++) {
        beats = isrChecks(0);
        if (beats.isEmpty()) Thread.sleep(100);
      }
      if (beats.isEmpty()) throw new IllegalStateException("broker 0's log shows no ISR check (isr-expiration) to align t = 0 with");
      long last = beats.get(beats.size() - 1);
      long earliest = System.currentTimeMillis() + 300; // room to sleep into it
      long k = Math.floorDiv(earliest + isrPhase - last + isrPeriod - 1, isrPeriod);
      long start = last + k * isrPeriod - isrPhase;
      Thread.sleep(Math.max(0, start - System.currentTimeMillis()));
      return start;
    }

    /**
     * Each broker's ISR-check beat as this run saw it: its phase from t = 0 (the first check at or
     * after t = 0, modulo the period; before any crash of that broker, since a restart starts a
     * new beat), how many checks were seen, and the largest distance of any check from that beat
     * (the scheduler's own jitter).
     */
    ArrayNode isrBeats() throws IOException {
      ArrayNode out = JSON.createArrayNode();
      for (int b = 0; b < cluster.brokers; b++) {
        long stop = Long.MAX_VALUE;
        for (JsonNode a : scenario.path("actions")) {
          if (a.path("action").asText().equals("crash_broker") && a.path("broker").asInt() == b) {
            stop = Math.min(stop, t0 + a.path("at_ms").asLong());
          }
        }
        final long until = stop;
        List<Long> seen = isrChecks(b).stream().filter(t -> t >= t0 && t < until).toList();
        ObjectNode o = out.addObject();
        o.put("broker", b);
        if (seen.isEmpty() || isrPeriod <= 0) {
          o.putNull("phase_ms");
          continue;
        }
        long first = seen.get(0) - t0;
        long phase = Math.floorMod(first, isrPeriod);
        long jitter = 0;
        for (long t : seen) {
          long off = Math.floorMod(t - t0 - phase + isrPeriod / 2, isrPeriod) - isrPeriod / 2;
          jitter = Math.max(jitter, Math.abs(off));
        }
        o.put("phase_ms", phase);
        o.put("checks", seen.size());
        o.put("jitter_ms", jitter);
      }
      return out;
    }

    long now() {
      return System.currentTimeMillis() - t0;
    }

    /**
     * Every "Shrinking ISR" line of the brokers' own logs, as times from t = 0: each is a beat of
     * that leader's ISR check (the line is written while the check runs), and it names the out of
     * sync replicas' last caught-up times. This is where Kafka's beat fell in this run, which the
     * comparison runs the model at (scenario-format.md, "Phases").
     */
    ArrayNode shrinksFromLogs() throws IOException {
      ArrayNode out = JSON.createArrayNode();
      var line = java.util.regex.Pattern.compile(
          "^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) INFO \\[Partition (.+)-(\\d+) broker=(\\d+)\\] Shrinking ISR from .* to .*?\\. .*Out of sync replicas: (.*)\\. \\(kafka.cluster.Partition\\)");
      var replica = java.util.regex.Pattern.compile("brokerId: (\\d+), endOffset: (-?\\d+), lastCaughtUpTimeMs: (\\d+)");
      var stamp = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS").withZone(java.time.ZoneId.systemDefault());
      for (int b = 0; b < cluster.brokers; b++) {
        Path log = cluster.dir.resolve("broker-" + b + ".log");
        if (!Files.exists(log)) continue;
        for (String text : Files.readAllLines(log)) {
          var m = line.matcher(text);
          if (!m.find()) continue;
          long at = java.time.Instant.from(stamp.parse(m.group(1))).toEpochMilli() - t0;
          if (at < 0) continue; // before the scenario's t = 0
          ObjectNode o = out.addObject();
          o.put("at_ms", at);
          o.put("broker", Integer.parseInt(m.group(4)));
          o.put("topic", m.group(2));
          o.put("partition", Integer.parseInt(m.group(3)));
          ArrayNode lagging = o.putArray("out_of_sync");
          var r = replica.matcher(m.group(5));
          while (r.find()) {
            ObjectNode x = lagging.addObject();
            x.put("broker", Integer.parseInt(r.group(1)));
            x.put("last_caught_up_ms", Long.parseLong(r.group(3)) - t0);
          }
        }
      }
      return out;
    }

    /** Creates the scenario's topics with the contract's assignment and waits until every ISR is full. */
    void createTopics() throws Exception {
      List<NewTopic> topics = new ArrayList<>();
      for (JsonNode t : scenario.path("topics")) {
        int partitions = t.path("partitions").asInt();
        int rf = t.path("replication_factor").asInt();
        Map<Integer, List<Integer>> assignment = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
          List<Integer> replicas = new ArrayList<>();
          for (int i = 0; i < rf; i++) replicas.add((p + i) % cluster.brokers);
          assignment.put(p, replicas);
        }
        NewTopic topic = new NewTopic(t.path("name").asText(), assignment);
        topic.configs(Map.of("min.insync.replicas", String.valueOf(config(scenario, "min_insync_replicas", 1))));
        topics.add(topic);
      }
      cluster.admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
      long deadline = System.currentTimeMillis() + 60_000;
      while (!allInSync()) {
        if (System.currentTimeMillis() > deadline) throw new IllegalStateException("the topics' ISRs did not fill within 60 s");
        Thread.sleep(100);
      }
      // A new partition's ISR is full from its creation, before the followers have fetched; the
      // contract's t = 0 has every follower caught up with a fetch parked at its leader. Let the
      // fetchers start and go round their idle cycle a few times first.
      Thread.sleep(2000 + 2 * config(scenario, "replica_fetch_wait_max_ms", 500));
      for (TopicDescription d : describe().values()) {
        for (TopicPartitionInfo p : d.partitions()) {
          if (p.leader() != null) leaders.put(d.name() + "-" + p.partition(), p.leader().id());
        }
      }
    }

    Map<String, TopicDescription> describe() throws Exception {
      List<String> names = new ArrayList<>();
      for (JsonNode t : scenario.path("topics")) names.add(t.path("name").asText());
      return cluster.admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS);
    }

    boolean allInSync() throws Exception {
      try {
        for (TopicDescription d : describe().values()) {
          for (TopicPartitionInfo p : d.partitions()) {
            if (p.leader() == null || p.isr().size() != p.replicas().size()) return false;
          }
        }
        return true;
      } catch (ExecutionException e) {
        return false;
      }
    }

    /** Polls the partitions' leader and ISR; each change goes into `isr_changes` with its time. */
    Thread watchIsr() {
      Thread t = new Thread(() -> {
        Map<String, String> last = new HashMap<>();
        while (!Thread.currentThread().isInterrupted()) {
          try {
            for (TopicDescription d : describe().values()) {
              for (TopicPartitionInfo p : d.partitions()) {
                List<Integer> isr = p.isr().stream().map(Node::id).sorted().toList();
                Integer leader = p.leader() == null || p.leader().id() < 0 ? null : p.leader().id();
                String key = d.name() + "-" + p.partition();
                if (leader == null) leaders.remove(key);
                else leaders.put(key, leader);
                String state = leader + " " + isr;
                if (!state.equals(last.put(key, state))) {
                  ObjectNode change = JSON.createObjectNode();
                  change.put("seen_ms", now());
                  change.put("topic", d.name());
                  change.put("partition", p.partition());
                  if (leader == null) change.putNull("leader");
                  else change.put("leader", leader);
                  ArrayNode a = change.putArray("isr");
                  isr.forEach(a::add);
                  synchronized (isrChanges) {
                    isrChanges.add(change);
                  }
                }
              }
            }
            Thread.sleep(50);
          } catch (InterruptedException e) {
            return;
          } catch (Exception e) {
            // a broker down, a timeout: the next poll tries again
          }
        }
      }, "isr-watch");
      t.setDaemon(true);
      t.start();
      return t;
    }

    /** Connections opened before t = 0, by produce id (see `preconnect`). */
    final Map<String, Socket> connections = new ConcurrentHashMap<>();

    /**
     * Opens each produce's connection before t = 0, so that a request leaves at its instant and a
     * burst (S15: a thousand in a second) does not storm the brokers' accept queues. Only where the
     * broker it goes to is known now: its own `broker`, or the leader of its first partition when
     * nothing (a crash, an election) can move that leader before it is sent.
     */
    void preconnect() throws IOException {
      long firstChange = Long.MAX_VALUE;
      for (JsonNode a : scenario.path("actions")) {
        String kind = a.path("action").asText();
        if (kind.equals("crash_broker") || kind.equals("elect_leader") || kind.equals("restart_broker")) {
          firstChange = Math.min(firstChange, a.path("at_ms").asLong());
        }
      }
      for (JsonNode a : scenario.path("actions")) {
        if (!a.path("action").asText().equals("produce")) continue;
        boolean known = a.has("broker") || a.path("at_ms").asLong() < firstChange;
        if (!known) continue;
        int broker = a.has("broker") ? a.path("broker").asInt() : leaderOfFirst(a);
        Socket s = new Socket("127.0.0.1", cluster.clientPort[broker]);
        s.setTcpNoDelay(true);
        connections.put(a.path("id").asText() + "@" + broker, s);
      }
    }

    ObjectNode run() throws Exception {
      createTopics();
      warmUp();
      preconnect();
      t0 = startAt();
      Thread watch = watchIsr();
      List<Thread> producers = new ArrayList<>();
      for (JsonNode action : scenario.path("actions")) {
        long at = action.path("at_ms").asLong();
        long wait = at - now();
        if (wait > 0) Thread.sleep(wait);
        String kind = action.path("action").asText();
        int broker = action.path("broker").asInt(-1);
        switch (kind) {
          case "produce" -> producers.add(produce(action));
          case "pause_follower" -> cluster.pause(broker, true);
          case "resume_follower" -> cluster.pause(broker, false);
          case "crash_broker" -> cluster.crash(broker);
          case "restart_broker" -> cluster.restart(broker);
          case "elect_leader" -> electLeader(action);
          default -> throw new IllegalArgumentException("unknown action " + kind);
        }
      }
      long until = scenario.path("run_until_ms").asLong();
      long wait = until - now();
      if (wait > 0) Thread.sleep(wait);
      Map<String, TopicDescription> end = describe();
      Map<org.apache.kafka.common.TopicPartition, Long> hw = highWatermarks(end);
      watch.interrupt();
      for (Thread p : producers) p.join(1000);
      connections.values().forEach(Proxy::close); // opened early for a produce that went elsewhere
      cluster.stop();
      ObjectNode out = JSON.createObjectNode();
      out.put("name", scenario.path("name").asText());
      out.put("run_until_ms", until);
      ArrayNode rs = out.putArray("responses");
      for (JsonNode action : scenario.path("actions")) {
        if (action.path("action").asText().equals("produce")) rs.add(responses.get(action.path("id").asText()));
      }
      ArrayNode parts = out.putArray("partitions");
      for (JsonNode t : scenario.path("topics")) {
        TopicDescription d = end.get(t.path("name").asText());
        for (TopicPartitionInfo p : d.partitions()) {
          ObjectNode o = parts.addObject();
          o.put("topic", d.name());
          o.put("partition", p.partition());
          if (p.leader() == null || p.leader().id() < 0) o.putNull("leader");
          else o.put("leader", p.leader().id());
          ArrayNode isr = o.putArray("isr");
          p.isr().stream().map(Node::id).sorted().forEach(isr::add);
          Long h = hw.get(new org.apache.kafka.common.TopicPartition(d.name(), p.partition()));
          if (h == null) o.putNull("high_watermark");
          else o.put("high_watermark", h);
          ArrayNode replicas = o.putArray("replicas");
          for (Node r : p.replicas()) {
            ObjectNode ro = replicas.addObject();
            ro.put("broker", r.id());
            ro.put("log_end_offset", cluster.logEndOffset(r.id(), d.name(), p.partition()));
          }
        }
      }
      out.set("isr_changes", isrChanges);
      out.set("isr_shrinks", shrinksFromLogs());
      out.set("isr_checks", isrBeats());
      if (isrPhase != null) out.put("isr_phase_target_ms", isrPhase);
      ArrayNode ignored = out.putArray("elections_ignored");
      electionsIgnored.forEach(ignored::add);
      cluster.deleteFiles();
      return out;
    }

    /**
     * Loads and runs once what a produce uses (the request's classes, serialization, a thread), so
     * that the first produce of the scenario leaves when it should rather than after class loading.
     */
    void warmUp() throws Exception {
      ProduceRequestData data = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(1000);
      RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, PRODUCE_VERSION, "kafka-check", 0);
      new ProduceRequest.Builder(PRODUCE_VERSION, PRODUCE_VERSION, data).build(PRODUCE_VERSION).serializeWithHeader(header);
      MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("w".getBytes()));
      Thread t = new Thread(() -> { });
      t.start();
      t.join();
    }

    /**
     * The contract's elect_leader: leadership moves to `broker` when it is a live member of the
     * partition's ISR, otherwise nothing happens. Kafka's Admin API elects only the preferred
     * replica (the first of the assignment), so the partition's replicas are first reordered with
     * `broker` first (a reassignment to the same set, which completes at once), then a preferred
     * election runs. The reordering stays: a later leader choice on a failure goes by the new
     * order, where the model keeps the old one (said in docs/kafka-check.md).
     */
    void electLeader(JsonNode action) throws Exception {
      String topic = action.path("topic").asText();
      int partition = action.path("partition").asInt();
      int broker = action.path("broker").asInt();
      TopicDescription d = describe().get(topic);
      TopicPartitionInfo info = d == null ? null : d.partitions().stream().filter(p -> p.partition() == partition).findFirst().orElse(null);
      if (info == null || info.isr().stream().noneMatch(n -> n.id() == broker) || !cluster.alive(broker)) {
        electionsIgnored.add(topic + "-" + partition + " to " + broker);
        return;
      }
      var tp = new org.apache.kafka.common.TopicPartition(topic, partition);
      List<Integer> order = new ArrayList<>(List.of(broker));
      for (Node r : info.replicas()) if (r.id() != broker) order.add(r.id());
      cluster.admin.alterPartitionReassignments(Map.of(tp, java.util.Optional.of(new org.apache.kafka.clients.admin.NewPartitionReassignment(order))))
          .all().get(10, TimeUnit.SECONDS);
      long deadline = System.currentTimeMillis() + 10_000;
      while (!cluster.admin.listPartitionReassignments(java.util.Set.of(tp)).reassignments().get(10, TimeUnit.SECONDS).isEmpty()) {
        if (System.currentTimeMillis() > deadline) throw new IllegalStateException("the reordering of " + tp + " did not complete");
        Thread.sleep(5);
      }
      cluster.admin.electLeaders(org.apache.kafka.common.ElectionType.PREFERRED, java.util.Set.of(tp)).all().get(10, TimeUnit.SECONDS);
      // A produce right after goes to the new leader, as the model's does (the poll may lag).
      leaders.put(topic + "-" + partition, broker);
    }

    /**
     * Each partition's high watermark, as its leader reports it in a consumer's fetch response.
     * (ListOffsets is no way to read it: a new leader whose HW is below its epoch's start offset
     * answers it OFFSET_NOT_AVAILABLE, as in s09.) Null where there is no leader or no answer.
     */
    Map<org.apache.kafka.common.TopicPartition, Long> highWatermarks(Map<String, TopicDescription> topics) {
      Map<org.apache.kafka.common.TopicPartition, Long> out = new HashMap<>();
      for (TopicDescription d : topics.values()) {
        for (TopicPartitionInfo p : d.partitions()) {
          if (p.leader() == null || p.leader().id() < 0 || !cluster.alive(p.leader().id())) continue;
          var tp = new org.apache.kafka.common.TopicPartition(d.name(), p.partition());
          try {
            out.put(tp, fetchHighWatermark(p.leader().id(), tp));
          } catch (Exception e) {
            System.err.println("kafka-check: no high watermark for " + tp + ": " + e);
          }
        }
      }
      return out;
    }

    static final short FETCH_VERSION = 12;

    long fetchHighWatermark(int leader, org.apache.kafka.common.TopicPartition tp) throws IOException {
      var partition = new org.apache.kafka.common.requests.FetchRequest.PartitionData(Uuid.ZERO_UUID, 0, 0, 1, java.util.Optional.empty());
      var request = org.apache.kafka.common.requests.FetchRequest.Builder.forConsumer(FETCH_VERSION, 0, 0, Map.of(tp, partition)).build(FETCH_VERSION);
      RequestHeader header = new RequestHeader(ApiKeys.FETCH, FETCH_VERSION, "kafka-check", 2);
      var response = (org.apache.kafka.common.requests.FetchResponse) exchange(leader, request.serializeWithHeader(header), header, 10_000);
      for (var topic : response.data().responses()) {
        for (var part : topic.partitions()) {
          if (part.partitionIndex() != tp.partition()) continue;
          if (part.errorCode() != 0) throw new IOException(Errors.forCode(part.errorCode()).name());
          return part.highWatermark();
        }
      }
      throw new IOException("the fetch response does not name " + tp);
    }

    /** One request on a connection of its own to a broker's client listener, and its response. */
    AbstractResponse exchange(int broker, ByteBuffer body, RequestHeader header, int timeoutMs) throws IOException {
      try (Socket s = new Socket("127.0.0.1", cluster.clientPort[broker])) {
        s.setTcpNoDelay(true);
        s.setSoTimeout(timeoutMs);
        OutputStream out = s.getOutputStream();
        out.write(ByteBuffer.allocate(4).putInt(body.remaining()).array());
        out.write(body.array(), body.arrayOffset() + body.position(), body.remaining());
        out.flush();
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return AbstractResponse.parseResponse(ByteBuffer.wrap(bytes), header);
      }
    }

    /** Sends one ProduceRequest on a connection of its own; its answer is recorded when it comes. */
    Thread produce(JsonNode action) {
      String id = action.path("id").asText();
      long received = action.path("at_ms").asLong();
      int acks = action.path("acks").asText().equals("all") ? -1 : action.path("acks").asInt();
      long clientTimeout = config(scenario, "request_timeout_ms", 30000);
      long timeout = action.path("timeout_ms").asLong(clientTimeout);
      int broker = action.has("broker") ? action.path("broker").asInt() : leaderOfFirst(action);
      ProduceRequestData data = new ProduceRequestData().setAcks((short) acks).setTimeoutMs((int) timeout);
      ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
      for (JsonNode r : action.path("records")) {
        String topic = r.path("topic").asText();
        ProduceRequestData.TopicProduceData td = topics.find(topic, Uuid.ZERO_UUID);
        if (td == null) {
          td = new ProduceRequestData.TopicProduceData().setName(topic);
          topics.add(td);
        }
        SimpleRecord[] records = new SimpleRecord[r.path("count").asInt()];
        for (int i = 0; i < records.length; i++) records[i] = new SimpleRecord(("r" + i).getBytes());
        td.partitionData().add(new ProduceRequestData.PartitionProduceData()
            .setIndex(r.path("partition").asInt())
            .setRecords(MemoryRecords.withRecords(Compression.NONE, records)));
      }
      data.setTopicData(topics);
      Thread t = new Thread(() -> {
        ObjectNode response = JSON.createObjectNode();
        response.put("id", id);
        response.put("received_ms", received);
        response.put("broker", broker);
        Socket early = connections.remove(id + "@" + broker);
        try (Socket s = early != null ? early : new Socket("127.0.0.1", cluster.clientPort[broker])) {
          s.setTcpNoDelay(true);
          RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, PRODUCE_VERSION, "kafka-check", 1);
          ByteBuffer body = new ProduceRequest.Builder(PRODUCE_VERSION, PRODUCE_VERSION, data).build(PRODUCE_VERSION).serializeWithHeader(header);
          OutputStream out = s.getOutputStream();
          response.put("sent_ms", now());
          out.write(ByteBuffer.allocate(4).putInt(body.remaining()).array());
          out.write(body.array(), body.arrayOffset() + body.position(), body.remaining());
          out.flush();
          DataInputStream in = new DataInputStream(s.getInputStream());
          if (acks == 0) {
            // No response comes; the broker closes the connection on an error.
            s.setSoTimeout(2000);
            boolean closed;
            try {
              closed = in.read() < 0;
            } catch (java.net.SocketTimeoutException e) {
              closed = false;
            }
            response.putNull("responded_ms");
            response.put("connection_closed", closed);
            response.putArray("partitions");
          } else {
            // A producer's own request.timeout.ms (kafka-semantics.md, edge case 17): where the
            // request asks the broker for longer, the client gives up once more than its own has
            // passed, as the Java producer's NetworkClient does, and closes the connection (the
            // socket closes as this block ends); the broker is not told.
            boolean givesUp = timeout > clientTimeout;
            s.setSoTimeout((int) (givesUp ? clientTimeout + 1 : timeout + 60_000));
            int size;
            try {
              size = in.readInt();
            } catch (java.net.SocketTimeoutException e) {
              if (!givesUp) throw e;
              response.put("client_timed_out_ms", now());
              response.putNull("responded_ms");
              response.put("connection_closed", false);
              response.putArray("partitions");
              responses.put(id, response);
              return;
            }
            byte[] bytes = new byte[size];
            in.readFully(bytes);
            long at = now();
            ProduceResponse pr = (ProduceResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(bytes), header);
            response.put("responded_ms", at);
            response.put("connection_closed", false);
            ArrayNode ps = response.putArray("partitions");
            for (ProduceResponseData.TopicProduceResponse tr : pr.data().responses()) {
              for (ProduceResponseData.PartitionProduceResponse p : tr.partitionResponses()) {
                ObjectNode o = ps.addObject();
                o.put("topic", tr.name());
                o.put("partition", p.index());
                o.put("error", Errors.forCode(p.errorCode()).name());
                o.put("base_offset", p.baseOffset());
              }
            }
          }
        } catch (IOException e) {
          response.putNull("responded_ms");
          response.put("connection_closed", true);
          response.put("io_error", String.valueOf(e.getMessage()));
        }
        responses.put(id, response);
      }, "produce-" + id);
      t.start();
      return t;
    }

    /** The contract's default broker: the leader of the first listed partition that has one, else 0. */
    int leaderOfFirst(JsonNode action) {
      for (JsonNode r : action.path("records")) {
        Integer leader = leaders.get(r.path("topic").asText() + "-" + r.path("partition").asInt());
        if (leader != null) return leader;
      }
      return 0;
    }
  }
}
