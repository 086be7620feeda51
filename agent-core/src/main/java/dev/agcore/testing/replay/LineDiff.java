package dev.agcore.testing.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff of two texts, as {@code diff -u} shows it: lines only in the first with
 * {@code -}, only in the second with {@code +}, a few unchanged lines around each change.
 */
final class LineDiff {

	private static final int CONTEXT = 2;

	private LineDiff() {
	}

	static String of(String expected, String actual) {
		String[] a = expected.split("\n", -1);
		String[] b = actual.split("\n", -1);
		// longest common subsequence, from the end: small texts, so O(n*m) is fine
		int[][] common = new int[a.length + 1][b.length + 1];
		for (int i = a.length - 1; i >= 0; i--) {
			for (int j = b.length - 1; j >= 0; j--) {
				common[i][j] = a[i].equals(b[j]) ? common[i + 1][j + 1] + 1
						: Math.max(common[i + 1][j], common[i][j + 1]);
			}
		}
		List<String> lines = new ArrayList<>();
		int i = 0;
		int j = 0;
		while (i < a.length || j < b.length) {
			if (i < a.length && j < b.length && a[i].equals(b[j])) {
				lines.add("  " + a[i++]);
				j++;
			}
			else if (i < a.length && (j == b.length || common[i + 1][j] >= common[i][j + 1])) {
				// removed lines first, as diff -u shows them
				lines.add("- " + a[i++]);
			}
			else {
				lines.add("+ " + b[j++]);
			}
		}
		return withContext(lines);
	}

	private static String withContext(List<String> lines) {
		StringBuilder out = new StringBuilder();
		boolean skipped = false;
		for (int k = 0; k < lines.size(); k++) {
			if (nearChange(lines, k)) {
				if (skipped) {
					out.append("  ...\n");
					skipped = false;
				}
				out.append(lines.get(k)).append('\n');
			}
			else {
				skipped = true;
			}
		}
		if (skipped) {
			out.append("  ...\n");
		}
		return out.toString();
	}

	private static boolean nearChange(List<String> lines, int index) {
		for (int k = Math.max(0, index - CONTEXT); k <= Math.min(lines.size() - 1, index + CONTEXT); k++) {
			if (!lines.get(k).startsWith("  ")) {
				return true;
			}
		}
		return false;
	}

}
