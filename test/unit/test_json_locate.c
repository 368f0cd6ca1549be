/* pk_json_locate: where a member of a JSON object starts, found by scanning
 * the text (the reader's error path for JSON inputs without node positions). */
#include "t.h"
#include "io/reader.h"

static void at(const char *text, long line0, long col0, long obj_line, long obj_col, const char *path, long want_line,
               long want_col)
{
	pk_origin o = { .line = obj_line, .col = obj_col };
	pk_json_locate(text, strlen(text), line0, col0, path, &o);
	CHECK(o.line == want_line && o.col == want_col, "%s -> %ld:%ld (got %ld:%ld)", path, want_line, want_col, o.line,
	      o.col);
}

int main(void)
{
	const char *pretty =
		"{\n"
		"    \"apiVersion\": \"scheduling.k8s.io/v1\",\n"
		"    \"kind\": \"PriorityClass\",\n"
		"    \"metadata\": {\"name\": \"a\", \"labels\": {\"x\": \"{[\\\"]}\"}},\n"
		"    \"value\": 2000000001\n"
		"}\n";
	at(pretty, 1, 1, 1, 1, "value", 5, 14);
	at(pretty, 1, 1, 1, 1, "metadata.name", 4, 26);
	at(pretty, 1, 1, 1, 1, "metadata.labels.x", 4, 47);
	/* a member that is not there: the deepest one that is */
	at(pretty, 1, 1, 1, 1, "metadata.generateName", 4, 17);
	at(pretty, 1, 1, 1, 1, "spec.priority", 1, 1);

	/* an item of a pretty-printed List, located from the whole file */
	const char *list =
		"{\"kind\": \"List\", \"items\": [\n"
		"  {\"kind\": \"Pod\", \"spec\": {\"containers\": [{\"name\": \"c\"}]}},\n"
		"  {\"kind\": \"Pod\",\n"
		"   \"spec\": {\"containers\": [{\"name\": \"a\"}, {\"name\": \"b\", \"image\": 1}],\n"
		"            \"priorityClassName\": \"nope\"}}\n"
		"]}\n";
	at(list, 1, 1, 3, 3, "spec.priorityClassName", 5, 34);
	at(list, 1, 1, 3, 3, "spec.containers[1].image", 4, 66);
	at(list, 1, 1, 3, 3, "spec.containers[2].name", 4, 27);

	/* the offset of the object, to go on from there with the next one */
	pk_origin third = { .line = 3, .col = 3 };
	size_t off = pk_json_locate(list, strlen(list), 1, 1, "kind", &third);
	CHECK(strncmp(list + off, "{\"kind\": \"Pod\",\n   \"spec\"", 25) == 0 && third.line == 3 && third.col == 12,
	      "the second item starts at offset %zu, its kind at %ld:%ld", off, third.line, third.col);
	pk_origin again = { .line = 5, .col = 13 };
	pk_json_locate(list + off, strlen(list) - off, 3, 3, "", &again);
	CHECK(again.line == 5 && again.col == 13, "from an item on, later positions are found (got %ld:%ld)", again.line,
	      again.col);

	/* the text of one item starts where the item does */
	const char *item = "{\"a\": [[1, 2], {\"b\": true}], \"a\": {\"c\": null}}";
	at(item, 7, 3, 7, 3, "a.c", 7, 43);   /* the later duplicate is the one kept */
	at(item, 7, 3, 7, 3, "a[1]", 7, 37);  /* not an array any more */

	/* UTF-8: columns count characters */
	at("{\"d\": \"\xc3\xa9\xc3\xa9\", \"v\": 1}", 1, 1, 1, 1, "v", 1, 18);
	/* truncated text: no crash, the deepest member found */
	at("{\"spec\": {\"x\": [1, 2", 1, 1, 1, 1, "spec.x[5]", 1, 16);
	return T_DONE();
}
