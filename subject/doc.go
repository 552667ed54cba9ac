// Package subject erases or exports one person's data across every table
// that holds it.
package subject
