package io.worldflow.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A PNG of Worldflow's figures against the peers': one panel per figure that has peer figures or a goal, grouped bars on
 * a log scale (bar = median, whisker = range), the goal as a dashed line. Plain Java2D.
 */
final class Chart {

    private static final int COLS = 4;
    private static final int PANEL_W = 400;
    private static final int PANEL_H = 300;
    private static final int TOP = 70;
    private static final Color[] WORLD_COLORS = {new Color(0x1f77b4), new Color(0x2ca02c), new Color(0x17becf)};
    private static final Color[] PEER_COLORS = {
        new Color(0xbbbbbb), new Color(0x999999), new Color(0x777777), new Color(0x555555)
    };

    private record Bar(String name, double mid, double low, double high, Color color) {}

    private Chart() {}

    static void write(Results results, Path file) {
        List<Figure> figures = Figure.ALL.stream()
                .filter(f -> !f.peers().isEmpty() || f.goal() != null)
                .filter(f -> results.worlds().stream()
                        .anyMatch(w -> !results.values(w, f.key()).isEmpty()))
                .toList();
        int rows = Math.max(1, (figures.size() + COLS - 1) / COLS);
        BufferedImage img = new BufferedImage(COLS * PANEL_W, TOP + rows * PANEL_H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString("Worldflow vs peers (log scale; bar = median, whisker = range, dashed = goal)", 16, 26);
        legend(g, results.worlds());
        for (int i = 0; i < figures.size(); i++) {
            panel(g, figures.get(i), results, (i % COLS) * PANEL_W, TOP + (i / COLS) * PANEL_H);
        }
        g.dispose();
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            if (!ImageIO.write(img, "png", file.toFile())) {
                throw new IllegalStateException("no PNG writer");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void legend(Graphics2D g, List<String> worlds) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        int x = 16;
        List<String> names = new ArrayList<>();
        List<Color> colors = new ArrayList<>();
        for (int i = 0; i < worlds.size(); i++) {
            names.add("Worldflow " + worlds.get(i));
            colors.add(WORLD_COLORS[i % WORLD_COLORS.length]);
        }
        for (int i = 0; i < Figure.PEER_NAMES.size(); i++) {
            names.add(Figure.PEER_NAMES.get(i));
            colors.add(PEER_COLORS[i]);
        }
        for (int i = 0; i < names.size(); i++) {
            g.setColor(colors.get(i));
            g.fillRect(x, 40, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(names.get(i), x + 18, 52);
            x += 26 + g.getFontMetrics().stringWidth(names.get(i));
        }
    }

    private static void panel(Graphics2D g, Figure f, Results results, int x0, int y0) {
        List<Bar> bars = new ArrayList<>();
        List<String> worlds = results.worlds();
        for (int i = 0; i < worlds.size(); i++) {
            List<Double> v = results.values(worlds.get(i), f.key());
            if (!v.isEmpty()) {
                bars.add(new Bar(
                        worlds.get(i),
                        Results.median(v),
                        Results.min(v),
                        Results.max(v),
                        WORLD_COLORS[i % WORLD_COLORS.length]));
            }
        }
        for (int i = 0; i < Figure.PEER_NAMES.size(); i++) {
            Figure.Peer p = f.peers().get(Figure.PEER_NAMES.get(i));
            if (p != null) {
                bars.add(new Bar(Figure.PEER_NAMES.get(i), p.mid(), p.low(), p.high(), PEER_COLORS[i]));
            }
        }
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Bar b : bars) {
            lo = Math.min(lo, positive(b.low));
            hi = Math.max(hi, positive(b.high));
        }
        if (f.goal() != null) {
            lo = Math.min(lo, f.goal());
            hi = Math.max(hi, f.goal());
        }
        double logLo = Math.floor(Math.log10(lo));
        double logHi = Math.max(logLo + 1, Math.ceil(Math.log10(hi)));
        int left = x0 + 55;
        int right = x0 + PANEL_W - 15;
        int top = y0 + 30;
        int bottom = y0 + PANEL_H - 45;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        g.drawString(
                f.label() + " [" + f.unit() + "] " + (f.higherBetter() ? "↑ better" : "↓ better"), x0 + 10, y0 + 18);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        for (double e = logLo; e <= logHi; e++) {
            int y = y(Math.pow(10, e), logLo, logHi, top, bottom);
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(left, y, right, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(Report.num(Math.pow(10, e)), x0 + 5, y + 4);
        }
        g.setColor(Color.BLACK);
        g.drawLine(left, top, left, bottom);
        g.drawLine(left, bottom, right, bottom);
        int slot = (right - left) / Math.max(1, bars.size());
        for (int i = 0; i < bars.size(); i++) {
            Bar b = bars.get(i);
            int bx = left + i * slot + slot / 6;
            int bw = slot * 2 / 3;
            int by = y(positive(b.mid), logLo, logHi, top, bottom);
            g.setColor(b.color);
            g.fillRect(bx, by, bw, bottom - by);
            g.setColor(Color.BLACK);
            int yl = y(positive(b.low), logLo, logHi, top, bottom);
            int yh = y(positive(b.high), logLo, logHi, top, bottom);
            int cx = bx + bw / 2;
            g.drawLine(cx, yl, cx, yh);
            g.drawLine(cx - 4, yl, cx + 4, yl);
            g.drawLine(cx - 4, yh, cx + 4, yh);
            g.drawString(Report.num(b.mid), bx, Math.max(top - 2, by - 3));
            String name = b.name.replace("OpenWorkflow ", "OW ");
            g.drawString(name, bx, bottom + 14 + (i % 2) * 12);
        }
        if (f.goal() != null) {
            int gy = y(f.goal(), logLo, logHi, top, bottom);
            g.setColor(Color.RED);
            g.setStroke(
                    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            g.drawLine(left, gy, right, gy);
            g.setStroke(new BasicStroke());
            g.drawString(String.format(Locale.ROOT, "goal %s", Report.num(f.goal())), right - 70, gy - 3);
        }
    }

    private static double positive(double v) {
        return v > 0 ? v : 1e-3;
    }

    private static int y(double v, double logLo, double logHi, int top, int bottom) {
        double t = (Math.log10(v) - logLo) / (logHi - logLo);
        return (int) Math.round(bottom - Math.max(0, Math.min(1, t)) * (bottom - top));
    }
}
