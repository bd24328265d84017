// A registry CLI, for TestDepGoroutine: one goroutine per repository,
// each asking the client for the repository's tags (one request).
package main

func listAll(c *Client, repos []string) {
	var wg sync.WaitGroup
	for _, r := range repos {
		wg.Add(1)
		go func(r string) {
			defer wg.Done()
			c.Tags(r)
		}(r)
	}
	wg.Wait()
}

func (c *Client) Tags(repo string) []string {
	resp, _ := c.http.Get(c.base + "/v2/" + repo + "/tags/list")
	return decode(resp)
}
