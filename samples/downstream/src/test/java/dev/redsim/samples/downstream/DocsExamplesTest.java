package dev.redsim.samples.downstream;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/testing.md shows whole files of this project: each block must equal its file, which the build compiles and
 * runs, so the page's examples cannot rot.
 */
class DocsExamplesTest {
    private static final Path ROOT = Path.of("../..");
    private static final Pattern BLOCK = Pattern.compile("<!-- file: (\\S+) -->\\n```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyExampleOfTheTestingPageIsACompiledFile() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/testing.md"), StandardCharsets.UTF_8);
        Matcher block = BLOCK.matcher(page);
        int examples = 0;
        while (block.find()) {
            Path file = ROOT.resolve(block.group(1));
            assertThat(file).as("the file of an example").exists();
            assertThat(block.group(2)).as(block.group(1)).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
            examples++;
        }
        assertThat(examples).isGreaterThanOrEqualTo(5);
    }
}
