package dev.agcore.docs.observability;

import io.micrometer.context.ThreadLocalAccessor;

// tag::accessor[]
public final class TenantAccessor implements ThreadLocalAccessor<String> {

	public static final String KEY = "tenant";

	@Override
	public Object key() {
		return KEY;
	}

	@Override
	public String getValue() {
		return TenantHolder.get();
	}

	@Override
	public void setValue(String value) {
		TenantHolder.set(value);
	}

	@Override
	public void setValue() {
		TenantHolder.clear();
	}

}
// end::accessor[]
