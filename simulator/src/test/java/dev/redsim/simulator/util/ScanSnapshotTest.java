package dev.redsim.simulator.util;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ScanSnapshotTest {
    @Test
    void pagesCoverEveryElementOnceAndEndAtZero() {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            all.add("e" + i);
        }
        ScanSnapshot<String> snapshot = ScanSnapshot.of(all, s -> s.getBytes(StandardCharsets.UTF_8));
        List<String> seen = new ArrayList<>();
        long cursor = 0;
        int pages = 0;
        do {
            cursor = snapshot.page(cursor, 7, s -> true, seen);
            pages++;
        } while (cursor != 0);
        assertThat(seen).hasSize(1000);
        assertThat(new HashSet<>(seen)).containsExactlyInAnyOrderElementsOf(all);
        assertThat(pages).isBetween(140, 150);
    }

    @Test
    void deadElementsAreSkippedAndCursorsAgreeAcrossSnapshots() {
        List<String> all = List.of("a", "b", "c", "d", "e", "f");
        ScanSnapshot<String> first = ScanSnapshot.of(all, s -> s.getBytes(StandardCharsets.UTF_8));
        List<String> seen = new ArrayList<>();
        long cursor = first.page(0, 2, s -> true, seen);
        // A new snapshot of a changed collection continues from the same cursor.
        ScanSnapshot<String> second = ScanSnapshot.of(List.of("a", "b", "c", "d", "e", "f", "g"),
                s -> s.getBytes(StandardCharsets.UTF_8));
        Set<String> dead = Set.of("c");
        while (cursor != 0) {
            cursor = second.page(cursor, 2, s -> !dead.contains(s), seen);
        }
        assertThat(seen).contains("a", "b", "d", "e", "f").doesNotContain("c");
    }

    @Test
    void cursorParsingFollowsStrtoul() {
        assertThat(ScanCursor.parse("0".getBytes())).isZero();
        assertThat(ScanCursor.parse("+5".getBytes())).isEqualTo(5);
        assertThat(ScanCursor.parse("-1".getBytes())).isEqualTo(-1L);
        assertThat(ScanCursor.parse("18446744073709551615".getBytes())).isEqualTo(-1L);
    }
}
