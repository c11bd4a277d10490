/* config/agents.json, the built-in agent profiles, in the binary as a
 * NUL-terminated string (agent_profiles.c parses it). The assembler reads
 * the file at build time; the Makefile makes this object depend on it. */
__asm__(".section .rodata\n"
	".global hs_agents_json\n"
	".type hs_agents_json, @object\n"
	"hs_agents_json:\n"
	".incbin \"config/agents.json\"\n"
	".byte 0\n"
	".size hs_agents_json, . - hs_agents_json\n"
	".previous\n");
