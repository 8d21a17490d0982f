package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// base implements every method of protocol.Server safely: requests the
// server does not handle answer MethodNotFound, notifications are ignored.
// Server embeds it, so that a method the library adds or a client calls
// can never reach a nil interface. The connection's dispatch (dispatch.go)
// calls only the methods it lists and answers every other one itself; base
// serves callers that hold a protocol.Server.
type base struct{}

func notFound(method string) error {
	return jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not supported: "+method)
}

func (base) Initialize(ctx context.Context, params *protocol.InitializeParams) (result *protocol.InitializeResult, err error) {
	return nil, notFound("Initialize")
}

func (base) Initialized(ctx context.Context, params *protocol.InitializedParams) (err error) {
	return nil
}

func (base) Shutdown(ctx context.Context) (err error) {
	return nil
}

func (base) Exit(ctx context.Context) (err error) {
	return nil
}

func (base) WorkDoneProgressCancel(ctx context.Context, params *protocol.WorkDoneProgressCancelParams) (err error) {
	return nil
}

func (base) LogTrace(ctx context.Context, params *protocol.LogTraceParams) (err error) {
	return nil
}

func (base) SetTrace(ctx context.Context, params *protocol.SetTraceParams) (err error) {
	return nil
}

func (base) CodeAction(ctx context.Context, params *protocol.CodeActionParams) (result []protocol.CodeAction, err error) {
	return nil, notFound("CodeAction")
}

func (base) CodeLens(ctx context.Context, params *protocol.CodeLensParams) (result []protocol.CodeLens, err error) {
	return nil, notFound("CodeLens")
}

func (base) CodeLensResolve(ctx context.Context, params *protocol.CodeLens) (result *protocol.CodeLens, err error) {
	return nil, notFound("CodeLensResolve")
}

func (base) ColorPresentation(ctx context.Context, params *protocol.ColorPresentationParams) (result []protocol.ColorPresentation, err error) {
	return nil, notFound("ColorPresentation")
}

func (base) Completion(ctx context.Context, params *protocol.CompletionParams) (result *protocol.CompletionList, err error) {
	return nil, notFound("Completion")
}

func (base) CompletionResolve(ctx context.Context, params *protocol.CompletionItem) (result *protocol.CompletionItem, err error) {
	return nil, notFound("CompletionResolve")
}

func (base) Declaration(ctx context.Context, params *protocol.DeclarationParams) (result []protocol.Location, err error) {
	return nil, notFound("Declaration")
}

func (base) Definition(ctx context.Context, params *protocol.DefinitionParams) (result []protocol.Location, err error) {
	return nil, notFound("Definition")
}

func (base) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) (err error) {
	return nil
}

func (base) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) (err error) {
	return nil
}

func (base) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) (err error) {
	return nil
}

func (base) DidChangeWorkspaceFolders(ctx context.Context, params *protocol.DidChangeWorkspaceFoldersParams) (err error) {
	return nil
}

func (base) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) (err error) {
	return nil
}

func (base) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) (err error) {
	return nil
}

func (base) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) (err error) {
	return nil
}

func (base) DocumentColor(ctx context.Context, params *protocol.DocumentColorParams) (result []protocol.ColorInformation, err error) {
	return nil, notFound("DocumentColor")
}

func (base) DocumentHighlight(ctx context.Context, params *protocol.DocumentHighlightParams) (result []protocol.DocumentHighlight, err error) {
	return nil, notFound("DocumentHighlight")
}

func (base) DocumentLink(ctx context.Context, params *protocol.DocumentLinkParams) (result []protocol.DocumentLink, err error) {
	return nil, notFound("DocumentLink")
}

func (base) DocumentLinkResolve(ctx context.Context, params *protocol.DocumentLink) (result *protocol.DocumentLink, err error) {
	return nil, notFound("DocumentLinkResolve")
}

func (base) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) (result []interface{}, err error) {
	return nil, notFound("DocumentSymbol")
}

func (base) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (result interface{}, err error) {
	return nil, notFound("ExecuteCommand")
}

func (base) FoldingRanges(ctx context.Context, params *protocol.FoldingRangeParams) (result []protocol.FoldingRange, err error) {
	return nil, notFound("FoldingRanges")
}

func (base) Formatting(ctx context.Context, params *protocol.DocumentFormattingParams) (result []protocol.TextEdit, err error) {
	return nil, notFound("Formatting")
}

func (base) Hover(ctx context.Context, params *protocol.HoverParams) (result *protocol.Hover, err error) {
	return nil, notFound("Hover")
}

func (base) Implementation(ctx context.Context, params *protocol.ImplementationParams) (result []protocol.Location, err error) {
	return nil, notFound("Implementation")
}

func (base) OnTypeFormatting(ctx context.Context, params *protocol.DocumentOnTypeFormattingParams) (result []protocol.TextEdit, err error) {
	return nil, notFound("OnTypeFormatting")
}

func (base) PrepareRename(ctx context.Context, params *protocol.PrepareRenameParams) (result *protocol.Range, err error) {
	return nil, notFound("PrepareRename")
}

func (base) RangeFormatting(ctx context.Context, params *protocol.DocumentRangeFormattingParams) (result []protocol.TextEdit, err error) {
	return nil, notFound("RangeFormatting")
}

func (base) References(ctx context.Context, params *protocol.ReferenceParams) (result []protocol.Location, err error) {
	return nil, notFound("References")
}

func (base) Rename(ctx context.Context, params *protocol.RenameParams) (result *protocol.WorkspaceEdit, err error) {
	return nil, notFound("Rename")
}

func (base) SignatureHelp(ctx context.Context, params *protocol.SignatureHelpParams) (result *protocol.SignatureHelp, err error) {
	return nil, notFound("SignatureHelp")
}

func (base) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) (result []protocol.SymbolInformation, err error) {
	return nil, notFound("Symbols")
}

func (base) TypeDefinition(ctx context.Context, params *protocol.TypeDefinitionParams) (result []protocol.Location, err error) {
	return nil, notFound("TypeDefinition")
}

func (base) WillSave(ctx context.Context, params *protocol.WillSaveTextDocumentParams) (err error) {
	return nil
}

func (base) WillSaveWaitUntil(ctx context.Context, params *protocol.WillSaveTextDocumentParams) (result []protocol.TextEdit, err error) {
	return nil, notFound("WillSaveWaitUntil")
}

func (base) ShowDocument(ctx context.Context, params *protocol.ShowDocumentParams) (result *protocol.ShowDocumentResult, err error) {
	return nil, notFound("ShowDocument")
}

func (base) WillCreateFiles(ctx context.Context, params *protocol.CreateFilesParams) (result *protocol.WorkspaceEdit, err error) {
	return nil, notFound("WillCreateFiles")
}

func (base) DidCreateFiles(ctx context.Context, params *protocol.CreateFilesParams) (err error) {
	return nil
}

func (base) WillRenameFiles(ctx context.Context, params *protocol.RenameFilesParams) (result *protocol.WorkspaceEdit, err error) {
	return nil, notFound("WillRenameFiles")
}

func (base) DidRenameFiles(ctx context.Context, params *protocol.RenameFilesParams) (err error) {
	return nil
}

func (base) WillDeleteFiles(ctx context.Context, params *protocol.DeleteFilesParams) (result *protocol.WorkspaceEdit, err error) {
	return nil, notFound("WillDeleteFiles")
}

func (base) DidDeleteFiles(ctx context.Context, params *protocol.DeleteFilesParams) (err error) {
	return nil
}

func (base) CodeLensRefresh(ctx context.Context) (err error) {
	return nil
}

func (base) PrepareCallHierarchy(ctx context.Context, params *protocol.CallHierarchyPrepareParams) (result []protocol.CallHierarchyItem, err error) {
	return nil, notFound("PrepareCallHierarchy")
}

func (base) IncomingCalls(ctx context.Context, params *protocol.CallHierarchyIncomingCallsParams) (result []protocol.CallHierarchyIncomingCall, err error) {
	return nil, notFound("IncomingCalls")
}

func (base) OutgoingCalls(ctx context.Context, params *protocol.CallHierarchyOutgoingCallsParams) (result []protocol.CallHierarchyOutgoingCall, err error) {
	return nil, notFound("OutgoingCalls")
}

func (base) SemanticTokensFull(ctx context.Context, params *protocol.SemanticTokensParams) (result *protocol.SemanticTokens, err error) {
	return nil, notFound("SemanticTokensFull")
}

func (base) SemanticTokensFullDelta(ctx context.Context, params *protocol.SemanticTokensDeltaParams) (result interface{}, err error) {
	return nil, notFound("SemanticTokensFullDelta")
}

func (base) SemanticTokensRange(ctx context.Context, params *protocol.SemanticTokensRangeParams) (result *protocol.SemanticTokens, err error) {
	return nil, notFound("SemanticTokensRange")
}

func (base) SemanticTokensRefresh(ctx context.Context) (err error) {
	return nil
}

func (base) LinkedEditingRange(ctx context.Context, params *protocol.LinkedEditingRangeParams) (result *protocol.LinkedEditingRanges, err error) {
	return nil, notFound("LinkedEditingRange")
}

func (base) Moniker(ctx context.Context, params *protocol.MonikerParams) (result []protocol.Moniker, err error) {
	return nil, notFound("Moniker")
}

func (base) Request(ctx context.Context, method string, params interface{}) (result interface{}, err error) {
	return nil, notFound("Request")
}
