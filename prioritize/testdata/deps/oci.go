// An OCI artifact CLI, for TestDepRetryLoop: a recursive walk over the
// referrers, two requests per node, each through an HTTP client's retry
// loop, which runs once per request; and one request per run (ping)
// through the same loop.
package main

func walk(c *Client, ref string) {
	c.manifest(ref)
	for _, r := range c.referrers(ref) {
		walk(c, r)
	}
}

func (c *Client) do(req *http.Request) *http.Response {
	for {
		resp, err := c.http.Do(req)
		if err != nil && c.retry() {
			continue
		}
		return resp
	}
}

func (c *Client) manifest(ref string) { c.do(get(ref)) }

func (c *Client) referrers(ref string) []string { return list(c.do(get(ref + "/referrers"))) }

func (c *Client) ping() { c.do(get("/v2/")) }
