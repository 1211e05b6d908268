package io.tfstream.e2e.harness;

import java.util.Arrays;
import java.util.List;

/** One measured run of the throughput harness (or the median of repeated runs of one job). */
public record HarnessRun(
        String profile,
        String job,
        long records,
        double seconds,
        double cpuSeconds,
        double kernelCpuSeconds,
        double s3ProxyCpuSeconds,
        long shardBytes,
        long s3ProxyReadBytes,
        long s3ProxyWrittenBytes) {
    double recordsPerSecond() {
        return records / seconds;
    }

    double cpuSecondsPerMillion() {
        return cpuSeconds * 1e6 / records;
    }

    /** The part of {@link #cpuSecondsPerMillion()} spent in the kernel (system time). */
    double kernelCpuSecondsPerMillion() {
        return kernelCpuSeconds * 1e6 / records;
    }

    /** This run with what its shards took: their bytes, and S3Proxy's I/O while it ran. */
    HarnessRun withShards(long bytes, long proxyRead, long proxyWritten, double proxyCpu) {
        return new HarnessRun(
                profile,
                job,
                records,
                seconds,
                cpuSeconds,
                kernelCpuSeconds,
                proxyCpu,
                bytes,
                proxyRead,
                proxyWritten);
    }

    /** The median of repeated runs of one job: median wall time and median CPU time. */
    static HarnessRun median(List<HarnessRun> runs) {
        HarnessRun first = runs.get(0);
        return new HarnessRun(
                first.profile(),
                first.job(),
                first.records(),
                medianOf(runs.stream().mapToDouble(HarnessRun::seconds).toArray()),
                medianOf(runs.stream().mapToDouble(HarnessRun::cpuSeconds).toArray()),
                medianOf(runs.stream().mapToDouble(HarnessRun::kernelCpuSeconds).toArray()),
                medianOf(runs.stream().mapToDouble(HarnessRun::s3ProxyCpuSeconds).toArray()),
                (long) medianOf(runs.stream().mapToDouble(HarnessRun::shardBytes).toArray()),
                (long) medianOf(runs.stream().mapToDouble(HarnessRun::s3ProxyReadBytes).toArray()),
                (long)
                        medianOf(
                                runs.stream()
                                        .mapToDouble(HarnessRun::s3ProxyWrittenBytes)
                                        .toArray()));
    }

    private static double medianOf(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
