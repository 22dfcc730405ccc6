package lsp

// The LSP 3.17 structures the server reads and writes, with the fields it
// uses (https://microsoft.github.io/language-server-protocol/ names them;
// unknown fields a client sends are ignored).

// Position is a zero-based line and a character offset in the negotiated
// encoding (UTF-8 bytes or UTF-16 code units).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span between two positions, the end excluded.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

type initializeParams struct {
	ProcessID             *int   `json:"processId"`
	RootURI               string `json:"rootUri"`
	RootPath              string `json:"rootPath"`
	InitializationOptions *struct {
		// Hosts are the host files of the workspace, relative to its
		// root or absolute: a saved file is checked by the full
		// evaluation of each host that reads it.
		Hosts []string `json:"hosts"`
		// Fleet is a fleet file, relative to the root or absolute: its
		// hosts read each other (Options.Fleet).
		Fleet string `json:"fleet"`
		// Bare evaluates without the built-in library.
		Bare bool `json:"bare"`
		// Checks says which checks of the generated files a save runs:
		// "off" (the default), "auto" or "required" (Options.Checks).
		Checks string `json:"checks"`
	} `json:"initializationOptions"`
	Capabilities struct {
		General struct {
			PositionEncodings []string `json:"positionEncodings"`
		} `json:"general"`
	} `json:"capabilities"`
	WorkspaceFolders []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
}

type textDocumentItem struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
	Text    string `json:"text"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type contentChange struct {
	Range *Range `json:"range"`
	Text  string `json:"text"`
}

type didChangeParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int    `json:"version"`
	} `json:"textDocument"`
	ContentChanges []contentChange `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type positionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

type referenceParams struct {
	positionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

type documentParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

// Diagnostic is a located message.
type Diagnostic struct {
	Range              Range                `json:"range"`
	Severity           int                  `json:"severity"`
	Source             string               `json:"source"`
	Message            string               `json:"message"`
	RelatedInformation []relatedInformation `json:"relatedInformation,omitempty"`
}

type relatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// Diagnostic severities.
const (
	severityError   = 1
	severityWarning = 2
)

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

type hover struct {
	Contents markupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// CompletionItem is one proposal.
type CompletionItem struct {
	Label         string         `json:"label"`
	Kind          int            `json:"kind,omitempty"`
	Detail        string         `json:"detail,omitempty"`
	Documentation *markupContent `json:"documentation,omitempty"`
	SortText      string         `json:"sortText,omitempty"`
	TextEdit      *textEdit      `json:"textEdit,omitempty"`
}

// Completion item kinds.
const (
	kindFunction   = 3
	kindField      = 5
	kindModule     = 9
	kindProperty   = 10
	kindEnumMember = 20
	kindValue      = 12
)

type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

type textEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// DocumentSymbol is one entry of the outline.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// Symbol kinds.
const (
	symbolModule    = 2
	symbolNamespace = 3
	symbolProperty  = 7
	symbolField     = 8
	symbolFunction  = 12
	symbolVariable  = 13
	symbolObject    = 19
	symbolEvent     = 24
)
