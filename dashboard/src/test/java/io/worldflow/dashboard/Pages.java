package io.worldflow.dashboard;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the browser tests do with a page that re-renders as runs change: find an element again when the page replaced it
 * meanwhile, wait for its text, click it, keep a screenshot.
 */
record Pages(WebDriver browser) {

    WebDriverWait waiting() {
        return new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    void screenshot(String name) throws IOException {
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(target)).as("screenshot %s", target).isGreaterThan(1000);
    }

    /** The element's text once it is there. */
    String text(By by) {
        return waiting()
                .ignoring(StaleElementReferenceException.class)
                .until(d ->
                        d.findElements(by).isEmpty() ? null : d.findElement(by).getText());
    }

    /** Waits until the element's text is {@code expected}. */
    void awaitText(By by, String expected) {
        waiting().ignoring(StaleElementReferenceException.class).until(d -> {
            var found = d.findElements(by);
            return !found.isEmpty() && found.getFirst().getText().equals(expected);
        });
    }

    void click(By by) {
        waiting().ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(by).click();
            return true;
        });
    }
}
