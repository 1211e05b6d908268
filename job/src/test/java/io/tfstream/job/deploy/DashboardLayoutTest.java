package io.tfstream.job.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/monitoring's dashboard is a sound Grafana layout (panels inside 24 columns, none
 * overlapping, every panel with a query), and its layout picture renders; the metric names
 * themselves are checked against a real scrape by {@link PrometheusMetricsITCase}.
 */
class DashboardLayoutTest {
    private static final Path DASHBOARD = MonitoringFiles.DIR.resolve("tfstream-dashboard.json");

    @TempDir Path dir;

    @Test
    void panelsFitTheGridWithoutOverlapAndEachHasAQuery() throws Exception {
        List<DashboardLayoutImage.Panel> panels = DashboardLayoutImage.panels(DASHBOARD);
        assertTrue(panels.size() >= 15, panels::toString);
        for (DashboardLayoutImage.Panel p : panels) {
            assertTrue(p.x() >= 0 && p.w() > 0 && p.x() + p.w() <= 24, p.toString());
            if (!p.type().equals("row")) {
                assertFalse(p.queries().isEmpty(), p.title());
                p.queries().forEach(q -> assertFalse(q.isBlank(), p.title()));
            }
            for (DashboardLayoutImage.Panel o : panels) {
                if (o != p) {
                    boolean apart =
                            o.x() + o.w() <= p.x()
                                    || p.x() + p.w() <= o.x()
                                    || o.y() + o.h() <= p.y()
                                    || p.y() + p.h() <= o.y();
                    assertTrue(apart, p.title() + " overlaps " + o.title());
                }
            }
        }
    }

    @Test
    void theLayoutRenders() throws Exception {
        System.setProperty("java.awt.headless", "true");
        Path png = dir.resolve("layout.png");
        DashboardLayoutImage.render(DASHBOARD, png);
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(24 * 56 + 32, img.getWidth());
        assertTrue(img.getHeight() > 500, "height " + img.getHeight());
    }
}
