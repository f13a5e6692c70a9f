package org.apache.kafka.server.util.timer;

import java.util.concurrent.DelayQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Kafka's timer on a simulated clock, in lock-step with the replay that drives it.
 *
 * <p>Everything that holds and expires the timeouts is Kafka's own, unchanged: the hierarchical
 * {@link TimingWheel}, its {@link TimerTaskList} buckets, the {@link DelayQueue} that orders them and
 * the single-thread executor that runs an expired {@link TimerTask} (for a purgatory,
 * {@code DelayedOperation.run}: {@code forceComplete}, then {@code onExpiration}). What differs from
 * {@link SystemTimer} is only where "now" comes from: SystemTimer stamps a task with
 * {@code Time.SYSTEM.hiResClockMs()} and waits on the queue by the wall clock; here both read the
 * replay's millisecond. This class lives in Kafka's package because the wheel's constructor and the
 * bucket class are package-private; it is compiled onto the classpath beside Kafka's jars.
 *
 * <p>Lock-step: the purgatory's reaper thread calls {@link #advanceClock} in its loop, and every
 * call after the first means the previous round (the timer's advance and then the purgatory's purge
 * check) is over. {@link #advanceTo} moves the clock to the next millisecond and returns once the
 * reaper has done that millisecond's round, so that at each millisecond Kafka expires and purges
 * before the arrivals and completions of it, exactly as the crate's replay does
 * ({@code src/purgatory/workload.rs}), and with the same pending operations.
 */
public final class SimulatedClockTimer implements Timer {
    private final ExecutorService taskExecutor;
    private final DelayQueue<TimerTaskList> delayQueue = new DelayQueue<>();
    private final AtomicInteger taskCounter = new AtomicInteger(0);
    private final TimingWheel timingWheel;
    private final ReentrantReadWriteLock.ReadLock readLock;
    private final ReentrantReadWriteLock.WriteLock writeLock;

    /** The replay's millisecond, read by {@link #add} on the request thread. */
    private volatile long nowMs;
    /** Guards the three below: the hand-over between the replay and the reaper. */
    private final Object beat = new Object();
    /** The millisecond the replay asks the reaper to reach. */
    private long targetMs;
    /** The millisecond the reaper's last timer advance reached. */
    private long reachedMs;
    /** The millisecond whose whole round (timer advance, then purge check) is over. */
    private long roundDoneMs;

    /** As {@code new SystemTimer(name, 1, 20, startMs)}, Kafka's purgatory timer, on the replay's clock. */
    public SimulatedClockTimer(String name, long startMs) {
        ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        readLock = lock.readLock();
        writeLock = lock.writeLock();
        taskExecutor = Executors.newFixedThreadPool(1, runnable -> {
            Thread thread = new Thread(runnable, "executor-" + name);
            thread.setDaemon(true);
            return thread;
        });
        timingWheel = new TimingWheel(1, 20, startMs, taskCounter, delayQueue);
        nowMs = startMs;
        targetMs = reachedMs = roundDoneMs = startMs - 1;
    }

    @Override
    public void add(TimerTask timerTask) {
        readLock.lock();
        try {
            addTimerTaskEntry(new TimerTaskEntry(timerTask, timerTask.delayMs + nowMs));
        } finally {
            readLock.unlock();
        }
    }

    /** As SystemTimer: into the wheel, or, when already due, to the executor (unless cancelled). */
    private void addTimerTaskEntry(TimerTaskEntry entry) {
        if (!timingWheel.add(entry) && !entry.cancelled()) {
            taskExecutor.submit(entry.timerTask);
        }
    }

    /**
     * The reaper's call. It waits (up to {@code timeoutMs} of wall time, as SystemTimer's poll, so
     * that a shutdown is never held up) for the replay to move the clock, then expires every bucket
     * due by then, as SystemTimer does for each bucket its queue hands out.
     */
    @Override
    public boolean advanceClock(long timeoutMs) throws InterruptedException {
        long goal;
        synchronized (beat) {
            roundDoneMs = reachedMs;
            beat.notifyAll();
            if (targetMs == reachedMs) beat.wait(timeoutMs);
            if (targetMs == reachedMs) return false;
            goal = targetMs;
        }
        boolean expired = false;
        writeLock.lock();
        try {
            for (TimerTaskList bucket = delayQueue.peek();
                 bucket != null && bucket.getExpiration() <= goal;
                 bucket = delayQueue.peek()) {
                delayQueue.remove(bucket);
                timingWheel.advanceClock(bucket.getExpiration());
                bucket.flush(this::addTimerTaskEntry);
                expired = true;
            }
        } finally {
            writeLock.unlock();
        }
        synchronized (beat) {
            reachedMs = goal;
        }
        return expired;
    }

    /** The replay's call: the clock moves to {@code ms}, and the reaper's round for it is done. */
    public void advanceTo(long ms) throws InterruptedException {
        synchronized (beat) {
            nowMs = ms;
            targetMs = ms;
            beat.notifyAll();
            while (roundDoneMs < ms) beat.wait();
        }
    }

    /** Returns once every expired task handed to the executor so far has run (it runs them in order). */
    public void awaitExpirations() throws InterruptedException, ExecutionException {
        taskExecutor.submit(() -> { }).get();
    }

    @Override
    public int size() {
        return taskCounter.get();
    }

    @Override
    public void close() {
        taskExecutor.shutdown();
    }
}
