package dev.agcore.autoconfigure.prompt;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the prompt templates.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.prompts", ignoreUnknownFields = false)
public class PromptProperties {

	/**
	 * Folder the templates are loaded from at startup, sub-folders included: a classpath
	 * location (found in every jar) or a file system one (file:./prompts/). A template's
	 * name is its path below the folder without the extension, such as support/system.
	 */
	private String location = "classpath:prompts/";

	/**
	 * Extension of the template files.
	 */
	private String fileExtension = ".hbs";

	public String getLocation() {
		return this.location;
	}

	public void setLocation(String location) {
		this.location = location;
	}

	public String getFileExtension() {
		return this.fileExtension;
	}

	public void setFileExtension(String fileExtension) {
		this.fileExtension = fileExtension;
	}

}
