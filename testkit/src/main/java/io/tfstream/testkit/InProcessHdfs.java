package io.tfstream.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * An HDFS in this JVM (Hadoop's {@code MiniDFSCluster}: a NameNode and one DataNode on 127.0.0.1,
 * blocks under a temporary directory) for shards on {@code hdfs://}, with a way to copy a tree off
 * it to look at its files.
 */
public final class InProcessHdfs implements AutoCloseable {
    private final MiniDFSCluster cluster;

    private InProcessHdfs(MiniDFSCluster cluster) {
        this.cluster = cluster;
    }

    public static InProcessHdfs start(Path dir) throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.toAbsolutePath().toString());
        conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
        conf.set("dfs.datanode.address", "127.0.0.1:0");
        conf.set("dfs.datanode.http.address", "127.0.0.1:0");
        conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
        conf.set("dfs.namenode.http-address", "127.0.0.1:0");
        MiniDFSCluster cluster =
                new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
        cluster.waitActive();
        return new InProcessHdfs(cluster);
    }

    /** {@code hdfs://127.0.0.1:PORT}. */
    public String uri() {
        return "hdfs://127.0.0.1:" + cluster.getNameNodePort();
    }

    /** Copies {@code path} (absolute on this HDFS) to a fresh {@code local}; returns it. */
    public Path copyToLocal(String path, Path local) throws IOException {
        if (Files.exists(local)) {
            try (Stream<Path> files = Files.walk(local)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(local);
        org.apache.hadoop.fs.FileSystem fs = cluster.getFileSystem();
        org.apache.hadoop.fs.Path src = new org.apache.hadoop.fs.Path(path);
        if (fs.exists(src)) {
            for (org.apache.hadoop.fs.FileStatus s : fs.listStatus(src)) {
                fs.copyToLocalFile(
                        false, s.getPath(), new org.apache.hadoop.fs.Path(local.toUri()), true);
            }
        }
        return local;
    }

    /**
     * Runs {@code action} while the DataNode is stopped (a machine lost with the blocks it held),
     * then starts it again on the same storage and waits until it is back.
     */
    public void withoutDataNode(ThrowingRunnable action) throws Exception {
        MiniDFSCluster.DataNodeProperties stopped = cluster.stopDataNode(0);
        try {
            action.run();
        } finally {
            cluster.restartDataNode(stopped, true);
            cluster.waitActive();
        }
    }

    /**
     * Recovers the lease of {@code path} (absolute on this HDFS), as {@code hdfs debug
     * recoverLease} does, and waits until the file is closed.
     */
    public void recoverLease(String path) throws Exception {
        org.apache.hadoop.hdfs.DistributedFileSystem fs = cluster.getFileSystem();
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
        while (!fs.recoverLease(p) && !fs.isFileClosed(p)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the lease of " + path + " was not recovered");
            }
            Thread.sleep(200);
        }
    }

    /** What {@link #withoutDataNode} runs. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Override
    public void close() {
        cluster.shutdown(true);
    }
}
