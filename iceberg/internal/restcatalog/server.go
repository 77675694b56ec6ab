// Package restcatalog serves an Iceberg catalog over the Iceberg REST
// catalog protocol, for tests: the endpoints iceberg-go's REST client calls
// to create namespaces and tables, load tables and commit to them, each
// done by the catalog it wraps (iceberg-go's SQL catalog in the tests). No
// Iceberg REST catalog server is installable here (none is a Go module the
// module proxy serves, and Apache Iceberg's Java one is out of reach), so
// this one stands in; it is not a production server (no auth, no paging,
// no views, no multi-table transactions).
package restcatalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
)

// Server is an http.Handler serving cat over the REST protocol under /v1.
type Server struct {
	cat catalog.Catalog
	mux *http.ServeMux
	// mu makes a commit's check of its requirements and its write one
	// step, so that of two writers that read the same metadata the second
	// is refused (409), as a REST catalog refuses a stale commit.
	mu sync.Mutex
	// BeforeCommit, when set, runs before each commit is checked, with
	// the commit's table: a test commits another writer's change there to
	// make this commit stale.
	BeforeCommit func(ctx context.Context, ident table.Identifier)
	// Commits and Conflicts count the commit requests and those refused
	// as stale.
	Commits, Conflicts atomic.Int64
}

// New returns a server of cat.
func New(cat catalog.Catalog) *Server {
	s := &Server{cat: cat, mux: http.NewServeMux()}
	s.mux.HandleFunc("GET /v1/config", s.config)
	s.mux.HandleFunc("GET /v1/namespaces", s.listNamespaces)
	s.mux.HandleFunc("POST /v1/namespaces", s.createNamespace)
	s.mux.HandleFunc("GET /v1/namespaces/{ns}", s.loadNamespace)
	s.mux.HandleFunc("HEAD /v1/namespaces/{ns}", s.namespaceExists)
	s.mux.HandleFunc("POST /v1/namespaces/{ns}/tables", s.createTable)
	s.mux.HandleFunc("GET /v1/namespaces/{ns}/tables/{table}", s.loadTable)
	s.mux.HandleFunc("HEAD /v1/namespaces/{ns}/tables/{table}", s.tableExists)
	s.mux.HandleFunc("POST /v1/namespaces/{ns}/tables/{table}", s.commitTable)
	return s
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// namespace is the path's namespace, its levels split at the unit
// separator (the path arrives decoded).
func namespace(r *http.Request) table.Identifier { return strings.Split(r.PathValue("ns"), "\x1f") }

func ident(r *http.Request) table.Identifier { return append(namespace(r), r.PathValue("table")) }

// reply writes v as JSON with status code.
func reply(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if v != nil {
		json.NewEncoder(w).Encode(v)
	}
}

// fail writes the protocol's error body for err, its status chosen by
// what the catalog said.
func fail(w http.ResponseWriter, err error) {
	code, typ := http.StatusInternalServerError, "ServiceFailureException"
	switch {
	case errors.Is(err, catalog.ErrNoSuchTable):
		code, typ = http.StatusNotFound, "NoSuchTableException"
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		code, typ = http.StatusNotFound, "NoSuchNamespaceException"
	case errors.Is(err, catalog.ErrTableAlreadyExists):
		code, typ = http.StatusConflict, "AlreadyExistsException"
	case errors.Is(err, catalog.ErrNamespaceAlreadyExists):
		code, typ = http.StatusConflict, "AlreadyExistsException"
	case errors.Is(err, table.ErrCommitFailed):
		code, typ = http.StatusConflict, "CommitFailedException"
	case errors.Is(err, errBadRequest):
		code, typ = http.StatusBadRequest, "BadRequestException"
	}
	reply(w, code, map[string]any{"error": map[string]any{"message": err.Error(), "type": typ, "code": code}})
}

var errBadRequest = errors.New("bad request")

func decode(r *http.Request, v any) error {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		return fmt.Errorf("%w: %v", errBadRequest, err)
	}
	return nil
}

func (s *Server) config(w http.ResponseWriter, r *http.Request) {
	reply(w, http.StatusOK, map[string]any{"defaults": map[string]string{}, "overrides": map[string]string{}})
}

func (s *Server) listNamespaces(w http.ResponseWriter, r *http.Request) {
	var parent table.Identifier
	if p := r.URL.Query().Get("parent"); p != "" {
		parent = strings.Split(p, "\x1f")
	}
	nss, err := s.cat.ListNamespaces(r.Context(), parent)
	if err != nil {
		fail(w, err)
		return
	}
	if nss == nil {
		nss = []table.Identifier{}
	}
	reply(w, http.StatusOK, map[string]any{"namespaces": nss})
}

func (s *Server) createNamespace(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Namespace  table.Identifier `json:"namespace"`
		Properties ice.Properties   `json:"properties"`
	}
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if err := s.cat.CreateNamespace(r.Context(), req.Namespace, req.Properties); err != nil {
		fail(w, err)
		return
	}
	if req.Properties == nil {
		req.Properties = ice.Properties{}
	}
	reply(w, http.StatusOK, req)
}

func (s *Server) loadNamespace(w http.ResponseWriter, r *http.Request) {
	props, err := s.cat.LoadNamespaceProperties(r.Context(), namespace(r))
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, http.StatusOK, map[string]any{"namespace": namespace(r), "properties": props})
}

func (s *Server) namespaceExists(w http.ResponseWriter, r *http.Request) {
	ok, err := s.cat.CheckNamespaceExists(r.Context(), namespace(r))
	existence(w, ok, err)
}

func (s *Server) tableExists(w http.ResponseWriter, r *http.Request) {
	ok, err := s.cat.CheckTableExists(r.Context(), ident(r))
	existence(w, ok, err)
}

// existence answers a HEAD request asking whether something exists: 204
// when it does, 404 when it does not.
func existence(w http.ResponseWriter, ok bool, err error) {
	switch {
	case err != nil:
		fail(w, err)
	case ok:
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// tableReply is the body that loading, creating and committing answer.
func tableReply(w http.ResponseWriter, meta table.Metadata, loc string) {
	raw, err := json.Marshal(meta)
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, http.StatusOK, map[string]any{"metadata-location": loc, "metadata": json.RawMessage(raw), "config": map[string]string{}})
}

func (s *Server) createTable(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name     string             `json:"name"`
		Schema   *ice.Schema        `json:"schema"`
		Location string             `json:"location"`
		Spec     *ice.PartitionSpec `json:"partition-spec"`
		Props    ice.Properties     `json:"properties"`
		Stage    bool               `json:"stage-create"`
	}
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if req.Stage || req.Schema == nil || req.Name == "" {
		fail(w, fmt.Errorf("%w: a table needs a name and a schema; staged creation is not served", errBadRequest))
		return
	}
	opts := []catalog.CreateTableOpt{catalog.WithProperties(req.Props)}
	if req.Spec != nil {
		opts = append(opts, catalog.WithPartitionSpec(req.Spec))
	}
	if req.Location != "" {
		opts = append(opts, catalog.WithLocation(req.Location))
	}
	tbl, err := s.cat.CreateTable(r.Context(), append(namespace(r), req.Name), req.Schema, opts...)
	if err != nil {
		fail(w, err)
		return
	}
	tableReply(w, tbl.Metadata(), tbl.MetadataLocation())
}

func (s *Server) loadTable(w http.ResponseWriter, r *http.Request) {
	tbl, err := s.cat.LoadTable(r.Context(), ident(r))
	if err != nil {
		fail(w, err)
		return
	}
	tableReply(w, tbl.Metadata(), tbl.MetadataLocation())
}

func (s *Server) commitTable(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Requirements table.Requirements `json:"requirements"`
		Updates      table.Updates      `json:"updates"`
	}
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	s.Commits.Add(1)
	id := ident(r)
	if s.BeforeCommit != nil {
		s.BeforeCommit(r.Context(), id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, err := s.cat.LoadTable(r.Context(), id)
	if err != nil {
		fail(w, err)
		return
	}
	for _, req := range req.Requirements {
		if err := req.Validate(cur.Metadata()); err != nil {
			s.Conflicts.Add(1)
			fail(w, fmt.Errorf("%w: %v", table.ErrCommitFailed, err))
			return
		}
	}
	meta, loc, err := s.cat.CommitTable(r.Context(), id, req.Requirements, req.Updates)
	if err != nil {
		if errors.Is(err, table.ErrCommitFailed) {
			s.Conflicts.Add(1)
		}
		fail(w, err)
		return
	}
	tableReply(w, meta, loc)
}
