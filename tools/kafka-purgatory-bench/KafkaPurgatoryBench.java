import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.server.purgatory.DelayedOperation;
import org.apache.kafka.server.purgatory.DelayedOperationKey;
import org.apache.kafka.server.purgatory.DelayedOperationPurgatory;
import org.apache.kafka.server.util.timer.SimulatedClockTimer;

/**
 * Kafka's own purgatory on the crate's purgatory workload (issue 29): Apache Kafka's
 * {@code DelayedOperationPurgatory}, its timing wheel and its reaper thread, unchanged, replaying
 * the schedule that {@code src/purgatory/workload.rs} draws and replays against the crate's
 * purgatory, read from the file {@code Schedule::write_file} writes
 * ({@code cargo run --release --example purgatory_workload -- N --write-schedule FILE}).
 *
 * <pre>
 *   java -cp 'target/kafka-purgatory-bench:JARS/*' KafkaPurgatoryBench SCHEDULE [--no-purge]
 * </pre>
 *
 * Prints {@code ready}, then replays the schedule once for each line read from stdin, each time
 * against a fresh purgatory, printing
 * {@code kafka_ms W cpu_ms C outcome COMPLETED EXPIRED peak_rss_kb R heap_peak_kb H}: wall and
 * process CPU time of the replay (every thread: the request thread, the reaper, the timer's
 * executor, the JIT and the GC), what became of the requests, and the process's peak memory.
 *
 * <p>Each simulated millisecond, as the crate's replay: the clock moves and the purgatory's reaper
 * runs its round (the timer's expirations, then the purge when more than the purge interval of
 * completed operations may sit on the watch lists), then that millisecond's requests arrive
 * ({@code tryCompleteElseWatch} on the three watch keys), then the requests whose latency ends in
 * it are completed ({@code forceComplete}, as Kafka's {@code TestPurgatoryPerformance} completes
 * them, which leaves them on the watch lists for the purge). The clock is simulated and the same on
 * both sides; see {@link SimulatedClockTimer} for why that is the fair choice and what it changes.
 * {@code --no-purge} sets the purge interval out of reach: a diagnostic of what the purge costs.
 */
public final class KafkaPurgatoryBench {
    /** Kafka's default {@code producer.purgatory.purge.interval.requests}. */
    private static final int PURGE_INTERVAL = 1000;

    /** The schedule file: see {@code Schedule::write_file}. */
    record Schedule(int timeoutMs, int[] keys, long endMs, int[] arriveMs, int[] completesAtMs) {
        static Schedule read(Path file) throws IOException {
            ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            byte[] magic = new byte[4];
            in.get(magic);
            if (!new String(magic, java.nio.charset.StandardCharsets.US_ASCII).equals("PPWL") || in.getInt() != 1) {
                throw new IOException(file + " is not a version 1 schedule (PPWL) file");
            }
            int requests = in.getInt();
            int timeoutMs = in.getInt();
            int[] keys = new int[in.getInt()];
            for (int k = 0; k < keys.length; k++) keys[k] = in.getInt();
            long endMs = in.getLong();
            int[] arrive = new int[requests];
            int[] completes = new int[requests];
            in.asIntBuffer().get(arrive);
            in.position(in.position() + 4 * requests);
            in.asIntBuffer().get(completes);
            return new Schedule(timeoutMs, keys, endMs, arrive, completes);
        }

        boolean completesFirst(int i) {
            return completesAtMs[i] - arriveMs[i] < timeoutMs;
        }
    }

    /** A watch key: Kafka keys its watch lists by the key object and shards them by its label. */
    record Key(int id) implements DelayedOperationKey {
        @Override
        public String keyLabel() {
            return "key-" + id;
        }
    }

    /** What the operations count as they finish. */
    static final class Counts {
        volatile long nowMs;
        final AtomicLong finished = new AtomicLong();
        final AtomicLong expired = new AtomicLong();
    }

    /** The benchmark's operation: it may complete once its latency has passed. */
    static final class FakeOperation extends DelayedOperation {
        private final long completesAtMs;
        private final Counts counts;

        FakeOperation(long timeoutMs, long completesAtMs, Counts counts) {
            super(timeoutMs);
            this.completesAtMs = completesAtMs;
            this.counts = counts;
        }

        @Override
        public boolean tryComplete() {
            return completesAtMs <= counts.nowMs && forceComplete();
        }

        /** Called for every operation that finishes, expired ones included (before onExpiration). */
        @Override
        public void onComplete() {
            counts.finished.incrementAndGet();
        }

        @Override
        public void onExpiration() {
            counts.expired.incrementAndGet();
        }
    }

    record Result(double wallMs, double cpuMs, long completed, long expired) { }

    static Result replay(Schedule s, boolean purge) throws Exception {
        Counts counts = new Counts();
        SimulatedClockTimer timer = new SimulatedClockTimer("bench", 0);
        DelayedOperationPurgatory<FakeOperation> purgatory = new DelayedOperationPurgatory<>(
            "Produce", timer, 0, purge ? PURGE_INTERVAL : Integer.MAX_VALUE, true, true);
        List<Key> keys = new ArrayList<>();
        for (int k : s.keys()) keys.add(new Key(k));
        int ring = s.timeoutMs();
        List<List<FakeOperation>> due = new ArrayList<>(ring);
        for (int i = 0; i < ring; i++) due.add(new ArrayList<>());
        int[] arrive = s.arriveMs();
        int[] completes = s.completesAtMs();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        long cpu0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        int next = 0;
        for (long t = 0; t <= s.endMs(); t++) {
            timer.advanceTo(t);
            counts.nowMs = t;
            while (next < arrive.length && arrive[next] == t) {
                FakeOperation op = new FakeOperation(s.timeoutMs(), completes[next], counts);
                purgatory.tryCompleteElseWatch(op, keys);
                if (s.completesFirst(next)) due.get(completes[next] % ring).add(op);
                next++;
            }
            List<FakeOperation> now = due.get((int) (t % ring));
            for (FakeOperation op : now) op.forceComplete();
            now.clear();
        }
        timer.awaitExpirations();
        long wall1 = System.nanoTime();
        long cpu1 = os.getProcessCpuTime();

        purgatory.shutdown();
        long expired = counts.expired.get();
        return new Result((wall1 - wall0) / 1e6, (cpu1 - cpu0) / 1e6, counts.finished.get() - expired, expired);
    }

    /** The process's peak resident set ({@code VmHWM}), in KB. */
    static long peakRssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return 0;
    }

    /** The heap's peak use since the last reset, in KB (summed over the heap's pools). */
    static long heapPeakKb() {
        long bytes = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) bytes += pool.getPeakUsage().getUsed();
        }
        return bytes / 1024;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: KafkaPurgatoryBench SCHEDULE_FILE [--no-purge]");
            System.exit(2);
        }
        Schedule schedule = Schedule.read(Path.of(args[0]));
        boolean purge = !(args.length > 1 && args[1].equals("--no-purge"));
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        while (in.readLine() != null) {
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) pool.resetPeakUsage();
            Result r = replay(schedule, purge);
            long heapPeakKb = heapPeakKb();
            // Collected now, untimed, rather than during the next contender's replay: a concurrent
            // cycle over this replay's heap, on the other core, slowed the crate's replay after it
            // by up to 3x (memory bandwidth and caches; seen in the first runs). Neither side's
            // clean-up is timed: the crate's purgatory is dropped after its clock stops too.
            System.gc();
            System.out.printf("kafka_ms %.1f cpu_ms %.1f outcome %d %d peak_rss_kb %d heap_peak_kb %d%n",
                r.wallMs(), r.cpuMs(), r.completed(), r.expired(), peakRssKb(), heapPeakKb);
            System.out.flush();
        }
    }
}
