package io.tfstream.sql;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.modelmbean.DescriptorSupport;
import javax.management.modelmbean.InvalidTargetObjectTypeException;
import javax.management.modelmbean.ModelMBeanAttributeInfo;
import javax.management.modelmbean.ModelMBeanInfoSupport;
import javax.management.modelmbean.ModelMBeanOperationInfo;
import javax.management.modelmbean.RequiredModelMBean;

/**
 * What {@code tfrecord.ignore-parse-errors} skipped while reading one table, counted per JVM (a
 * TaskManager) and published as JMX attributes: {@code io.tfstream.sql:type=TfRecordSkipped,
 * table="CATALOG.DB.TABLE",name=recordsSkipped|regionsSkipped|bytesSkipped}, attribute {@code
 * Value}.
 *
 * <p>JMX, not a Flink metric: the filesystem connector builds its {@code FileSource} itself and a
 * {@code BulkFormat} reader is never given the source's metric group (and the {@code
 * DeserializationSchema} adapter of the connector opens schemas with an unregistered group). The
 * MBeans are JDK classes holding JDK counters, so a registered MBean does not pin the job's class
 * loader; a later job's classes that count the same table take the names over, starting from the
 * counts so far.
 */
final class SkipCounters {
    /** JMX domain of the counters. */
    static final String DOMAIN = "io.tfstream.sql";

    private static final Map<String, SkipCounters> TABLES = new ConcurrentHashMap<>();

    /** Records skipped: ones that do not parse or fit the columns, and ones in damaged regions. */
    final AtomicLong records;

    /** Damaged regions skipped (a damaged compressed stream is one region, to its end). */
    final AtomicLong regions;

    /** Bytes of the damaged regions (of the decompressed stream; unknown for a broken stream). */
    final AtomicLong bytes;

    private SkipCounters(String table) {
        records = publish(table, "recordsSkipped");
        regions = publish(table, "regionsSkipped");
        bytes = publish(table, "bytesSkipped");
    }

    /** The counters of {@code table} (its object identifier), registered on first use. */
    static SkipCounters of(String table) {
        return TABLES.computeIfAbsent(table, SkipCounters::new);
    }

    /** The object name of one counter of {@code table}. */
    static ObjectName name(String table, String counter) {
        try {
            return new ObjectName(
                    DOMAIN
                            + ":type=TfRecordSkipped,table="
                            + ObjectName.quote(table)
                            + ",name="
                            + counter);
        } catch (JMException e) {
            throw new IllegalArgumentException("no JMX name for table '" + table + "'", e);
        }
    }

    private static AtomicLong publish(String table, String counter) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = name(table, counter);
        AtomicLong value = new AtomicLong();
        try {
            try {
                server.registerMBean(mbean(counter, value), name);
            } catch (InstanceAlreadyExistsException e) {
                // Registered by an earlier job's classes: continue its count under the same name.
                value.set((Long) server.getAttribute(name, "Value"));
                server.unregisterMBean(name);
                server.registerMBean(mbean(counter, value), name);
            }
        } catch (JMException e) {
            throw new IllegalStateException("cannot register the JMX counter " + name, e);
        }
        return value;
    }

    /** A model MBean of JDK classes only whose attribute {@code Value} reads {@code value}. */
    private static RequiredModelMBean mbean(String counter, AtomicLong value) throws JMException {
        DescriptorSupport attr =
                new DescriptorSupport(
                        new String[] {
                            "name=Value", "descriptorType=attribute", "getMethod=get",
                        });
        DescriptorSupport getter =
                new DescriptorSupport(
                        new String[] {"name=get", "descriptorType=operation", "role=getter"});
        ModelMBeanInfoSupport info =
                new ModelMBeanInfoSupport(
                        AtomicLong.class.getName(),
                        "tfrecord.ignore-parse-errors: " + counter,
                        new ModelMBeanAttributeInfo[] {
                            new ModelMBeanAttributeInfo(
                                    "Value", "long", counter, true, false, false, attr)
                        },
                        null,
                        new ModelMBeanOperationInfo[] {
                            new ModelMBeanOperationInfo(
                                    "get",
                                    "the count",
                                    new MBeanParameterInfo[0],
                                    "long",
                                    MBeanOperationInfo.INFO,
                                    getter)
                        },
                        null);
        RequiredModelMBean mbean = new RequiredModelMBean(info);
        try {
            mbean.setManagedResource(value, "ObjectReference");
        } catch (InvalidTargetObjectTypeException e) {
            throw new IllegalStateException("JMX refuses an object reference", e);
        }
        return mbean;
    }
}
