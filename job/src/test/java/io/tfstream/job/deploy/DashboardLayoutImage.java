package io.tfstream.job.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Draws the layout of a Grafana dashboard JSON as a PNG: each panel at its grid position (24
 * columns), with its title and its queries; rows as headings. The picture of
 * docs/operations.md#dashboard ({@code deploy/monitoring/render-layout.sh}); no Grafana needed.
 */
public final class DashboardLayoutImage {
    private static final int COLUMN = 56;
    private static final int GRID_ROW = 30;
    private static final int MARGIN = 16;
    private static final Color BACKGROUND = new Color(0x11, 0x12, 0x17);
    private static final Color PANEL = new Color(0x18, 0x1b, 0x1f);
    private static final Color BORDER = new Color(0x2c, 0x32, 0x35);
    private static final Color TITLE = new Color(0xcc, 0xcc, 0xdc);
    private static final Color QUERY = new Color(0x73, 0xbf, 0x69);

    /** A panel's place and text. */
    record Panel(String type, String title, int x, int y, int w, int h, List<String> queries) {}

    private DashboardLayoutImage() {}

    /** The panels of {@code dashboard} (Grafana JSON), in file order. */
    static List<Panel> panels(Path dashboard) throws IOException {
        JsonNode root = new ObjectMapper().readTree(dashboard.toFile());
        List<Panel> out = new ArrayList<>();
        for (JsonNode p : root.path("panels")) {
            JsonNode g = p.path("gridPos");
            List<String> queries = new ArrayList<>();
            for (JsonNode t : p.path("targets")) {
                queries.add(t.path("expr").asText());
            }
            out.add(
                    new Panel(
                            p.path("type").asText(),
                            p.path("title").asText(),
                            g.path("x").asInt(),
                            g.path("y").asInt(),
                            g.path("w").asInt(),
                            g.path("h").asInt(),
                            queries));
        }
        return out;
    }

    /** Writes the layout of {@code dashboard} to {@code png}. */
    static void render(Path dashboard, Path png) throws IOException {
        List<Panel> panels = panels(dashboard);
        int rows = panels.stream().mapToInt(p -> p.y() + p.h()).max().orElse(1);
        BufferedImage img =
                new BufferedImage(
                        24 * COLUMN + 2 * MARGIN,
                        rows * GRID_ROW + 2 * MARGIN,
                        BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(
                RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(BACKGROUND);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        Font title = new Font(Font.SANS_SERIF, Font.BOLD, 14);
        Font query = new Font(Font.MONOSPACED, Font.PLAIN, 11);
        for (Panel p : panels) {
            int x = MARGIN + p.x() * COLUMN;
            int y = MARGIN + p.y() * GRID_ROW;
            int w = p.w() * COLUMN;
            int h = p.h() * GRID_ROW;
            if (p.type().equals("row")) {
                g.setColor(TITLE);
                g.setFont(title.deriveFont(16f));
                g.drawString(p.title(), x + 4, y + 21);
                continue;
            }
            g.setColor(PANEL);
            g.fillRect(x + 3, y + 3, w - 6, h - 6);
            g.setColor(BORDER);
            g.setStroke(new BasicStroke(1));
            g.drawRect(x + 3, y + 3, w - 6, h - 6);
            g.setColor(TITLE);
            g.setFont(title);
            g.drawString(fit(g, p.title(), w - 20), x + 12, y + 24);
            g.setFont(query);
            g.setColor(QUERY);
            int line = y + 48;
            for (String q : p.queries()) {
                for (String part : wrap(g.getFontMetrics(), shorten(q), w - 24)) {
                    if (line > y + h - 12) {
                        break;
                    }
                    g.drawString(part, x + 12, line);
                    line += 15;
                }
                line += 4;
            }
        }
        g.dispose();
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(img, "png", png.toFile());
    }

    /** A query as drawn: Flink's scope prefixes and the job filter shortened. */
    static String shorten(String expr) {
        return expr.replace("{job_name=~\"$job\"}", "")
                .replace("job_name=~\"$job\",", "")
                .replace("flink_taskmanager_job_task_operator_", "…operator_")
                .replace("flink_taskmanager_job_task_", "…task_")
                .replace("flink_jobmanager_job_", "…jobmanager_job_");
    }

    private static String fit(Graphics2D g, String s, int width) {
        FontMetrics fm = g.getFontMetrics();
        String out = s;
        while (fm.stringWidth(out) > width && out.length() > 1) {
            out = out.substring(0, out.length() - 2) + "…";
        }
        return out;
    }

    private static List<String> wrap(FontMetrics fm, String s, int width) {
        List<String> lines = new ArrayList<>();
        String rest = s;
        while (fm.stringWidth(rest) > width) {
            int cut = rest.length();
            while (cut > 1 && fm.stringWidth(rest.substring(0, cut)) > width) {
                cut--;
            }
            lines.add(rest.substring(0, cut));
            rest = rest.substring(cut);
        }
        lines.add(rest);
        return lines;
    }

    /** {@code DashboardLayoutImage dashboard.json out.png}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException(
                    "usage: DashboardLayoutImage dashboard.json out.png");
        }
        System.setProperty("java.awt.headless", "true");
        render(Path.of(args[0]), Path.of(args[1]));
    }
}
