package dev.agcore.docs.observability;

import org.jspecify.annotations.Nullable;

/** The application's thread-local tenant that {@link TenantAccessor} propagates. */
final class TenantHolder {

	private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

	private TenantHolder() {
	}

	static @Nullable String get() {
		return TENANT.get();
	}

	static void set(String tenant) {
		TENANT.set(tenant);
	}

	static void clear() {
		TENANT.remove();
	}

}
